from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.tournament import Tournament
from ...models.tournament_join_request import TournamentJoinRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    tournament_id: int,
    *,
    body: TournamentJoinRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/tournaments/{tournament_id}/join/".format(
            tournament_id=quote(str(tournament_id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Tournament | None:
    if response.status_code == 200:
        response_200 = Tournament.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 406:
        response_406 = Error.from_dict(response.json())

        return response_406

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = Error.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Tournament]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    tournament_id: int,
    *,
    client: AuthenticatedClient,
    body: TournamentJoinRequest | Unset = UNSET,
) -> Response[Error | Tournament]:
    """Enter an open tournament

    Args:
        tournament_id (int):
        body (TournamentJoinRequest | Unset): The base of every request body (each one's OpenAPI
            component is closed:
            ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key
            it
            does not declare, at any depth, is refused before any value is read
            (``refuse_undeclared``),
            so a refused body changes nothing.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Tournament]
    """

    kwargs = _get_kwargs(
        tournament_id=tournament_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    tournament_id: int,
    *,
    client: AuthenticatedClient,
    body: TournamentJoinRequest | Unset = UNSET,
) -> Error | Tournament | None:
    """Enter an open tournament

    Args:
        tournament_id (int):
        body (TournamentJoinRequest | Unset): The base of every request body (each one's OpenAPI
            component is closed:
            ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key
            it
            does not declare, at any depth, is refused before any value is read
            (``refuse_undeclared``),
            so a refused body changes nothing.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Tournament
    """

    return sync_detailed(
        tournament_id=tournament_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    tournament_id: int,
    *,
    client: AuthenticatedClient,
    body: TournamentJoinRequest | Unset = UNSET,
) -> Response[Error | Tournament]:
    """Enter an open tournament

    Args:
        tournament_id (int):
        body (TournamentJoinRequest | Unset): The base of every request body (each one's OpenAPI
            component is closed:
            ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key
            it
            does not declare, at any depth, is refused before any value is read
            (``refuse_undeclared``),
            so a refused body changes nothing.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Tournament]
    """

    kwargs = _get_kwargs(
        tournament_id=tournament_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    tournament_id: int,
    *,
    client: AuthenticatedClient,
    body: TournamentJoinRequest | Unset = UNSET,
) -> Error | Tournament | None:
    """Enter an open tournament

    Args:
        tournament_id (int):
        body (TournamentJoinRequest | Unset): The base of every request body (each one's OpenAPI
            component is closed:
            ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key
            it
            does not declare, at any depth, is refused before any value is read
            (``refuse_undeclared``),
            so a refused body changes nothing.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Tournament
    """

    return (
        await asyncio_detailed(
            tournament_id=tournament_id,
            client=client,
            body=body,
        )
    ).parsed

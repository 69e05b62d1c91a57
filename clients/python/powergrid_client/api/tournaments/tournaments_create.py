from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.tournament import Tournament
from ...models.tournament_create_request import TournamentCreateRequest
from ...types import Response


def _get_kwargs(
    *,
    body: TournamentCreateRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/tournaments/",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Tournament | None:
    if response.status_code == 201:
        response_201 = Tournament.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 406:
        response_406 = Error.from_dict(response.json())

        return response_406

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
    *,
    client: AuthenticatedClient,
    body: TournamentCreateRequest,
) -> Response[Error | Tournament]:
    """Create a tournament (you direct it; enter it with join)

    Args:
        body (TournamentCreateRequest): The base of every request body (each one's OpenAPI
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
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: TournamentCreateRequest,
) -> Error | Tournament | None:
    """Create a tournament (you direct it; enter it with join)

    Args:
        body (TournamentCreateRequest): The base of every request body (each one's OpenAPI
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
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: TournamentCreateRequest,
) -> Response[Error | Tournament]:
    """Create a tournament (you direct it; enter it with join)

    Args:
        body (TournamentCreateRequest): The base of every request body (each one's OpenAPI
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
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: TournamentCreateRequest,
) -> Error | Tournament | None:
    """Create a tournament (you direct it; enter it with join)

    Args:
        body (TournamentCreateRequest): The base of every request body (each one's OpenAPI
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
            client=client,
            body=body,
        )
    ).parsed

from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.plan_request import PlanRequest
from ...models.plan_set import PlanSet
from ...types import Response


def _get_kwargs(
    game_id: int,
    *,
    body: PlanRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/games/{game_id}/plans/".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | PlanSet | None:
    if response.status_code == 200:
        response_200 = PlanSet.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | PlanSet]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    game_id: int,
    *,
    client: AuthenticatedClient,
    body: PlanRequest,
) -> Response[Error | PlanSet]:
    """Give or replace a plan

     One plan of each kind (a proxy bid per plant). If it applies now (it is your turn and it holds), its
    move is made before the answer: `moves_made` counts them and `acted` says what yours did, in the
    move log's words.

    Args:
        game_id (int):
        body (PlanRequest): One of the caller's plans (games.plans). Fields by kind; see
            docs/API.md, Plans.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PlanSet]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: int,
    *,
    client: AuthenticatedClient,
    body: PlanRequest,
) -> Error | PlanSet | None:
    """Give or replace a plan

     One plan of each kind (a proxy bid per plant). If it applies now (it is your turn and it holds), its
    move is made before the answer: `moves_made` counts them and `acted` says what yours did, in the
    move log's words.

    Args:
        game_id (int):
        body (PlanRequest): One of the caller's plans (games.plans). Fields by kind; see
            docs/API.md, Plans.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PlanSet
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    game_id: int,
    *,
    client: AuthenticatedClient,
    body: PlanRequest,
) -> Response[Error | PlanSet]:
    """Give or replace a plan

     One plan of each kind (a proxy bid per plant). If it applies now (it is your turn and it holds), its
    move is made before the answer: `moves_made` counts them and `acted` says what yours did, in the
    move log's words.

    Args:
        game_id (int):
        body (PlanRequest): One of the caller's plans (games.plans). Fields by kind; see
            docs/API.md, Plans.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PlanSet]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: int,
    *,
    client: AuthenticatedClient,
    body: PlanRequest,
) -> Error | PlanSet | None:
    """Give or replace a plan

     One plan of each kind (a proxy bid per plant). If it applies now (it is your turn and it holds), its
    move is made before the answer: `moves_made` counts them and `acted` says what yours did, in the
    move log's words.

    Args:
        game_id (int):
        body (PlanRequest): One of the caller's plans (games.plans). Fields by kind; see
            docs/API.md, Plans.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PlanSet
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            body=body,
        )
    ).parsed

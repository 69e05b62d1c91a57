from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.game_page import GamePage
from ...models.games_list_status import GamesListStatus
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = UNSET,
    mine: bool | Unset = UNSET,
    offset: int | Unset = UNSET,
    seeking_substitute: bool | Unset = UNSET,
    status: GamesListStatus | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["mine"] = mine

    params["offset"] = offset

    params["seeking_substitute"] = seeking_substitute

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/games/",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | GamePage | None:
    if response.status_code == 200:
        response_200 = GamePage.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 406:
        response_406 = Error.from_dict(response.json())

        return response_406

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | GamePage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = UNSET,
    mine: bool | Unset = UNSET,
    offset: int | Unset = UNSET,
    seeking_substitute: bool | Unset = UNSET,
    status: GamesListStatus | Unset = UNSET,
) -> Response[Error | GamePage]:
    """List games, newest first

    Args:
        limit (int | Unset):
        mine (bool | Unset):
        offset (int | Unset):
        seeking_substitute (bool | Unset):
        status (GamesListStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GamePage]
    """

    kwargs = _get_kwargs(
        limit=limit,
        mine=mine,
        offset=offset,
        seeking_substitute=seeking_substitute,
        status=status,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = UNSET,
    mine: bool | Unset = UNSET,
    offset: int | Unset = UNSET,
    seeking_substitute: bool | Unset = UNSET,
    status: GamesListStatus | Unset = UNSET,
) -> Error | GamePage | None:
    """List games, newest first

    Args:
        limit (int | Unset):
        mine (bool | Unset):
        offset (int | Unset):
        seeking_substitute (bool | Unset):
        status (GamesListStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GamePage
    """

    return sync_detailed(
        client=client,
        limit=limit,
        mine=mine,
        offset=offset,
        seeking_substitute=seeking_substitute,
        status=status,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = UNSET,
    mine: bool | Unset = UNSET,
    offset: int | Unset = UNSET,
    seeking_substitute: bool | Unset = UNSET,
    status: GamesListStatus | Unset = UNSET,
) -> Response[Error | GamePage]:
    """List games, newest first

    Args:
        limit (int | Unset):
        mine (bool | Unset):
        offset (int | Unset):
        seeking_substitute (bool | Unset):
        status (GamesListStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GamePage]
    """

    kwargs = _get_kwargs(
        limit=limit,
        mine=mine,
        offset=offset,
        seeking_substitute=seeking_substitute,
        status=status,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = UNSET,
    mine: bool | Unset = UNSET,
    offset: int | Unset = UNSET,
    seeking_substitute: bool | Unset = UNSET,
    status: GamesListStatus | Unset = UNSET,
) -> Error | GamePage | None:
    """List games, newest first

    Args:
        limit (int | Unset):
        mine (bool | Unset):
        offset (int | Unset):
        seeking_substitute (bool | Unset):
        status (GamesListStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GamePage
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            mine=mine,
            offset=offset,
            seeking_substitute=seeking_substitute,
            status=status,
        )
    ).parsed

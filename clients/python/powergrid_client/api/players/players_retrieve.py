from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.player_profile import PlayerProfile
from ...types import UNSET, Response, Unset


def _get_kwargs(
    username: str,
    *,
    page: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["page"] = page

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/players/{username}/".format(
            username=quote(str(username), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | PlayerProfile | None:
    if response.status_code == 200:
        response_200 = PlayerProfile.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | PlayerProfile]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    username: str,
    *,
    client: AuthenticatedClient,
    page: int | Unset = UNSET,
) -> Response[Error | PlayerProfile]:
    """A player's profile: rating, reliability, games

     Public facts, as the player's page shows them. The games listed are those the caller may see: a
    private game only to its players and invitees (and to the player themselves), never counted for
    anyone else.

    Args:
        username (str):
        page (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PlayerProfile]
    """

    kwargs = _get_kwargs(
        username=username,
        page=page,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    username: str,
    *,
    client: AuthenticatedClient,
    page: int | Unset = UNSET,
) -> Error | PlayerProfile | None:
    """A player's profile: rating, reliability, games

     Public facts, as the player's page shows them. The games listed are those the caller may see: a
    private game only to its players and invitees (and to the player themselves), never counted for
    anyone else.

    Args:
        username (str):
        page (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PlayerProfile
    """

    return sync_detailed(
        username=username,
        client=client,
        page=page,
    ).parsed


async def asyncio_detailed(
    username: str,
    *,
    client: AuthenticatedClient,
    page: int | Unset = UNSET,
) -> Response[Error | PlayerProfile]:
    """A player's profile: rating, reliability, games

     Public facts, as the player's page shows them. The games listed are those the caller may see: a
    private game only to its players and invitees (and to the player themselves), never counted for
    anyone else.

    Args:
        username (str):
        page (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PlayerProfile]
    """

    kwargs = _get_kwargs(
        username=username,
        page=page,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    username: str,
    *,
    client: AuthenticatedClient,
    page: int | Unset = UNSET,
) -> Error | PlayerProfile | None:
    """A player's profile: rating, reliability, games

     Public facts, as the player's page shows them. The games listed are those the caller may see: a
    private game only to its players and invitees (and to the player themselves), never counted for
    anyone else.

    Args:
        username (str):
        page (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PlayerProfile
    """

    return (
        await asyncio_detailed(
            username=username,
            client=client,
            page=page,
        )
    ).parsed

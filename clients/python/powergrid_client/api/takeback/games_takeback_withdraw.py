from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    game_id: int,
    request_id: int,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/v1/games/{game_id}/takeback/requests/{request_id}/".format(
            game_id=quote(str(game_id), safe=""),
            request_id=quote(str(request_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Error | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    game_id: int,
    request_id: int,
    *,
    client: AuthenticatedClient,
) -> Response[Any | Error]:
    """Withdraw your request

     A view of one game (``game_id`` in its path). Before anything else, the check that the
    caller is logged in included, it asks THE rule (``selectors.game_for``) whether the caller
    may see the game: a private game answers everyone but its players, invitees and staff
    exactly as a game that does not exist (404 ``not_found``), whatever they ask of it.
    ``self.game`` is the game with its seats, read once for the request.

    ``visible_on_error``: methods that ask the rule only when they fail (a move's POST, the
    hottest path: only a seated player's move succeeds, so success needs no check, and every
    refusal, a stale position or an authentication error included, turns into the 404 for whom
    the game is hidden).

    Args:
        game_id (int):
        request_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        request_id=request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: int,
    request_id: int,
    *,
    client: AuthenticatedClient,
) -> Any | Error | None:
    """Withdraw your request

     A view of one game (``game_id`` in its path). Before anything else, the check that the
    caller is logged in included, it asks THE rule (``selectors.game_for``) whether the caller
    may see the game: a private game answers everyone but its players, invitees and staff
    exactly as a game that does not exist (404 ``not_found``), whatever they ask of it.
    ``self.game`` is the game with its seats, read once for the request.

    ``visible_on_error``: methods that ask the rule only when they fail (a move's POST, the
    hottest path: only a seated player's move succeeds, so success needs no check, and every
    refusal, a stale position or an authentication error included, turns into the 404 for whom
    the game is hidden).

    Args:
        game_id (int):
        request_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error
    """

    return sync_detailed(
        game_id=game_id,
        request_id=request_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    game_id: int,
    request_id: int,
    *,
    client: AuthenticatedClient,
) -> Response[Any | Error]:
    """Withdraw your request

     A view of one game (``game_id`` in its path). Before anything else, the check that the
    caller is logged in included, it asks THE rule (``selectors.game_for``) whether the caller
    may see the game: a private game answers everyone but its players, invitees and staff
    exactly as a game that does not exist (404 ``not_found``), whatever they ask of it.
    ``self.game`` is the game with its seats, read once for the request.

    ``visible_on_error``: methods that ask the rule only when they fail (a move's POST, the
    hottest path: only a seated player's move succeeds, so success needs no check, and every
    refusal, a stale position or an authentication error included, turns into the 404 for whom
    the game is hidden).

    Args:
        game_id (int):
        request_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        request_id=request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: int,
    request_id: int,
    *,
    client: AuthenticatedClient,
) -> Any | Error | None:
    """Withdraw your request

     A view of one game (``game_id`` in its path). Before anything else, the check that the
    caller is logged in included, it asks THE rule (``selectors.game_for``) whether the caller
    may see the game: a private game answers everyone but its players, invitees and staff
    exactly as a game that does not exist (404 ``not_found``), whatever they ask of it.
    ``self.game`` is the game with its seats, read once for the request.

    ``visible_on_error``: methods that ask the rule only when they fail (a move's POST, the
    hottest path: only a seated player's move succeeds, so success needs no check, and every
    refusal, a stale position or an authentication error included, turns into the 404 for whom
    the game is hidden).

    Args:
        game_id (int):
        request_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            request_id=request_id,
            client=client,
        )
    ).parsed

from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.game import Game
from ...models.seeking_request import SeekingRequest
from ...types import Response


def _get_kwargs(
    game_id: int,
    *,
    body: SeekingRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/games/{game_id}/seeking/".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Game | None:
    if response.status_code == 200:
        response_200 = Game.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Game]:
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
    body: SeekingRequest,
) -> Response[Error | Game]:
    """Offer your seat to substitutes while you play on (or withdraw the offer)

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
        body (SeekingRequest): The base of every request body (each one's OpenAPI component is
            closed:
            ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key
            it
            does not declare, at any depth, is refused before any value is read
            (``refuse_undeclared``),
            so a refused body changes nothing.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Game]
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
    body: SeekingRequest,
) -> Error | Game | None:
    """Offer your seat to substitutes while you play on (or withdraw the offer)

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
        body (SeekingRequest): The base of every request body (each one's OpenAPI component is
            closed:
            ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key
            it
            does not declare, at any depth, is refused before any value is read
            (``refuse_undeclared``),
            so a refused body changes nothing.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Game
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
    body: SeekingRequest,
) -> Response[Error | Game]:
    """Offer your seat to substitutes while you play on (or withdraw the offer)

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
        body (SeekingRequest): The base of every request body (each one's OpenAPI component is
            closed:
            ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key
            it
            does not declare, at any depth, is refused before any value is read
            (``refuse_undeclared``),
            so a refused body changes nothing.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Game]
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
    body: SeekingRequest,
) -> Error | Game | None:
    """Offer your seat to substitutes while you play on (or withdraw the offer)

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
        body (SeekingRequest): The base of every request body (each one's OpenAPI component is
            closed:
            ``additionalProperties: false``, see ``games.api.openapi.closed_request_bodies``). A key
            it
            does not declare, at any depth, is refused before any value is read
            (``refuse_undeclared``),
            so a refused body changes nothing.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Game
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            body=body,
        )
    ).parsed

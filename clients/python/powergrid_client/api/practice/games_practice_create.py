from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.game import Game
from ...models.practice_body_request import PracticeBodyRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: int,
    *,
    body: PracticeBodyRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/games/{game_id}/practice/".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Game | None:
    if response.status_code == 201:
        response_201 = Game.from_dict(response.json())

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
    body: PracticeBodyRequest | Unset = UNSET,
) -> Response[Error | Game]:
    """A practice game against the bots from this game's position

     A finished game: the exact position after move `seq`, in the seat you choose. Your game under way:
    its position now in your seat, without what you do not know (the unseen cards dealt again with a new
    seed, every other player's money the account the public move log gives, others' sealed bids
    withdrawn). The new game is an ordinary one against the server's bots of `level` (the heuristic bot
    by default): unrated, unlisted, no emails unless `emails`, deleted 30 days after it was made. At
    most 30 a player an hour (the server's `PRACTICE_GAMES_PER_HOUR`): 429 `throttled` with
    `details.retry_after` beyond.

    Args:
        game_id (int):
        body (PracticeBodyRequest | Unset): The base of every request body (each one's OpenAPI
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
    body: PracticeBodyRequest | Unset = UNSET,
) -> Error | Game | None:
    """A practice game against the bots from this game's position

     A finished game: the exact position after move `seq`, in the seat you choose. Your game under way:
    its position now in your seat, without what you do not know (the unseen cards dealt again with a new
    seed, every other player's money the account the public move log gives, others' sealed bids
    withdrawn). The new game is an ordinary one against the server's bots of `level` (the heuristic bot
    by default): unrated, unlisted, no emails unless `emails`, deleted 30 days after it was made. At
    most 30 a player an hour (the server's `PRACTICE_GAMES_PER_HOUR`): 429 `throttled` with
    `details.retry_after` beyond.

    Args:
        game_id (int):
        body (PracticeBodyRequest | Unset): The base of every request body (each one's OpenAPI
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
    body: PracticeBodyRequest | Unset = UNSET,
) -> Response[Error | Game]:
    """A practice game against the bots from this game's position

     A finished game: the exact position after move `seq`, in the seat you choose. Your game under way:
    its position now in your seat, without what you do not know (the unseen cards dealt again with a new
    seed, every other player's money the account the public move log gives, others' sealed bids
    withdrawn). The new game is an ordinary one against the server's bots of `level` (the heuristic bot
    by default): unrated, unlisted, no emails unless `emails`, deleted 30 days after it was made. At
    most 30 a player an hour (the server's `PRACTICE_GAMES_PER_HOUR`): 429 `throttled` with
    `details.retry_after` beyond.

    Args:
        game_id (int):
        body (PracticeBodyRequest | Unset): The base of every request body (each one's OpenAPI
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
    body: PracticeBodyRequest | Unset = UNSET,
) -> Error | Game | None:
    """A practice game against the bots from this game's position

     A finished game: the exact position after move `seq`, in the seat you choose. Your game under way:
    its position now in your seat, without what you do not know (the unseen cards dealt again with a new
    seed, every other player's money the account the public move log gives, others' sealed bids
    withdrawn). The new game is an ordinary one against the server's bots of `level` (the heuristic bot
    by default): unrated, unlisted, no emails unless `emails`, deleted 30 days after it was made. At
    most 30 a player an hour (the server's `PRACTICE_GAMES_PER_HOUR`): 429 `throttled` with
    `details.retry_after` beyond.

    Args:
        game_id (int):
        body (PracticeBodyRequest | Unset): The base of every request body (each one's OpenAPI
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
        Error | Game
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            body=body,
        )
    ).parsed

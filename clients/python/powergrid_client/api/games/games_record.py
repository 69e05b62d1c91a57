from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.game_record import GameRecord
from ...types import Response


def _get_kwargs(
    game_id: int,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/games/{game_id}/record/".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | GameRecord | None:
    if response.status_code == 200:
        response_200 = GameRecord.from_dict(response.json())

        return response_200

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | GameRecord]:
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
) -> Response[Error | GameRecord]:
    """A finished game's record, to verify its shuffle and moves with the engine alone

     From the start, every game's `seed_commitment` is SHA-256 of `"<game id>:<seed>"`. At the end the
    seed is revealed here with the set-up, every move and the results: `python -m powergrid verify
    record.json` checks that the seed matches the commitment and that replaying the moves from it
    reaches these results.

    Args:
        game_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GameRecord]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: int,
    *,
    client: AuthenticatedClient,
) -> Error | GameRecord | None:
    """A finished game's record, to verify its shuffle and moves with the engine alone

     From the start, every game's `seed_commitment` is SHA-256 of `"<game id>:<seed>"`. At the end the
    seed is revealed here with the set-up, every move and the results: `python -m powergrid verify
    record.json` checks that the seed matches the commitment and that replaying the moves from it
    reaches these results.

    Args:
        game_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GameRecord
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    game_id: int,
    *,
    client: AuthenticatedClient,
) -> Response[Error | GameRecord]:
    """A finished game's record, to verify its shuffle and moves with the engine alone

     From the start, every game's `seed_commitment` is SHA-256 of `"<game id>:<seed>"`. At the end the
    seed is revealed here with the set-up, every move and the results: `python -m powergrid verify
    record.json` checks that the seed matches the commitment and that replaying the moves from it
    reaches these results.

    Args:
        game_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GameRecord]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: int,
    *,
    client: AuthenticatedClient,
) -> Error | GameRecord | None:
    """A finished game's record, to verify its shuffle and moves with the engine alone

     From the start, every game's `seed_commitment` is SHA-256 of `"<game id>:<seed>"`. At the end the
    seed is revealed here with the set-up, every move and the results: `python -m powergrid verify
    record.json` checks that the seed matches the commitment and that replaying the moves from it
    reaches these results.

    Args:
        game_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GameRecord
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
        )
    ).parsed

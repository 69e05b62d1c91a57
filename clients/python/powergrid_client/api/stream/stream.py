from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    last_event_id_query: str | Unset = UNSET,
    game: int | Unset = UNSET,
    last_event_id_header: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id_header, Unset):
        headers["Last-Event-ID"] = last_event_id_header

    params: dict[str, Any] = {}

    params["last_event_id"] = last_event_id_query

    params["game"] = game

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/stream/",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    last_event_id_query: str | Unset = UNSET,
    game: int | Unset = UNSET,
    last_event_id_header: str | Unset = UNSET,
) -> Response[Error | str]:
    """Server-sent events of your games (or of one game you watch)

     `text/event-stream`. On connect: a `game` event for each of your running games (or for the game
    watched), then one event per change, in order, the game's end (`status: finished`) included, and a
    `: keepalive` comment line every 20 s. Each event's `data` is a `StreamEvent`; its `id` is its
    position in the server's event log. Read the state (`GET /api/v1/games/{id}/state/`) for the rest:
    nothing secret travels on the stream. Reconnect when the connection drops (`retry: 2000`) with
    `Last-Event-ID`: every event missed follows, once; a client away longer than the server keeps events
    (24 h by default) gets `resync` and must read its games' state. Authenticate with a token (or a
    session), or pass `?game=<id>` to watch one game without an account (a private game: only as one of
    its players, invitees or staff).

    Args:
        last_event_id_query (str | Unset):
        game (int | Unset):
        last_event_id_header (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | str]
    """

    kwargs = _get_kwargs(
        last_event_id_query=last_event_id_query,
        game=game,
        last_event_id_header=last_event_id_header,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    last_event_id_query: str | Unset = UNSET,
    game: int | Unset = UNSET,
    last_event_id_header: str | Unset = UNSET,
) -> Error | str | None:
    """Server-sent events of your games (or of one game you watch)

     `text/event-stream`. On connect: a `game` event for each of your running games (or for the game
    watched), then one event per change, in order, the game's end (`status: finished`) included, and a
    `: keepalive` comment line every 20 s. Each event's `data` is a `StreamEvent`; its `id` is its
    position in the server's event log. Read the state (`GET /api/v1/games/{id}/state/`) for the rest:
    nothing secret travels on the stream. Reconnect when the connection drops (`retry: 2000`) with
    `Last-Event-ID`: every event missed follows, once; a client away longer than the server keeps events
    (24 h by default) gets `resync` and must read its games' state. Authenticate with a token (or a
    session), or pass `?game=<id>` to watch one game without an account (a private game: only as one of
    its players, invitees or staff).

    Args:
        last_event_id_query (str | Unset):
        game (int | Unset):
        last_event_id_header (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | str
    """

    return sync_detailed(
        client=client,
        last_event_id_query=last_event_id_query,
        game=game,
        last_event_id_header=last_event_id_header,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    last_event_id_query: str | Unset = UNSET,
    game: int | Unset = UNSET,
    last_event_id_header: str | Unset = UNSET,
) -> Response[Error | str]:
    """Server-sent events of your games (or of one game you watch)

     `text/event-stream`. On connect: a `game` event for each of your running games (or for the game
    watched), then one event per change, in order, the game's end (`status: finished`) included, and a
    `: keepalive` comment line every 20 s. Each event's `data` is a `StreamEvent`; its `id` is its
    position in the server's event log. Read the state (`GET /api/v1/games/{id}/state/`) for the rest:
    nothing secret travels on the stream. Reconnect when the connection drops (`retry: 2000`) with
    `Last-Event-ID`: every event missed follows, once; a client away longer than the server keeps events
    (24 h by default) gets `resync` and must read its games' state. Authenticate with a token (or a
    session), or pass `?game=<id>` to watch one game without an account (a private game: only as one of
    its players, invitees or staff).

    Args:
        last_event_id_query (str | Unset):
        game (int | Unset):
        last_event_id_header (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | str]
    """

    kwargs = _get_kwargs(
        last_event_id_query=last_event_id_query,
        game=game,
        last_event_id_header=last_event_id_header,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    last_event_id_query: str | Unset = UNSET,
    game: int | Unset = UNSET,
    last_event_id_header: str | Unset = UNSET,
) -> Error | str | None:
    """Server-sent events of your games (or of one game you watch)

     `text/event-stream`. On connect: a `game` event for each of your running games (or for the game
    watched), then one event per change, in order, the game's end (`status: finished`) included, and a
    `: keepalive` comment line every 20 s. Each event's `data` is a `StreamEvent`; its `id` is its
    position in the server's event log. Read the state (`GET /api/v1/games/{id}/state/`) for the rest:
    nothing secret travels on the stream. Reconnect when the connection drops (`retry: 2000`) with
    `Last-Event-ID`: every event missed follows, once; a client away longer than the server keeps events
    (24 h by default) gets `resync` and must read its games' state. Authenticate with a token (or a
    session), or pass `?game=<id>` to watch one game without an account (a private game: only as one of
    its players, invitees or staff).

    Args:
        last_event_id_query (str | Unset):
        game (int | Unset):
        last_event_id_header (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | str
    """

    return (
        await asyncio_detailed(
            client=client,
            last_event_id_query=last_event_id_query,
            game=game,
            last_event_id_header=last_event_id_header,
        )
    ).parsed

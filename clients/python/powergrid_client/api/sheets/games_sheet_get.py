from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.sheet import Sheet
from ...types import Response


def _get_kwargs(
    game_id: int,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/games/{game_id}/sheet/".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | Sheet | None:
    if response.status_code == 200:
        response_200 = Sheet.from_dict(response.json())

        return response_200

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Error | Sheet]:
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
) -> Response[Error | Sheet]:
    """Your round sheet, filled in with a suggestion

     Your answers for the whole round: the plants to open (in order, each with a max), the most you pay
    for the others, fuel up to a price, cities up to a total, power. Filled in from your own view only,
    each line with its reason. `due`: the game waits for your answer; `deadline`: when the suggestion is
    played for you if you have not answered. Only you ever see your sheet.

    Args:
        game_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Sheet]
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
) -> Error | Sheet | None:
    """Your round sheet, filled in with a suggestion

     Your answers for the whole round: the plants to open (in order, each with a max), the most you pay
    for the others, fuel up to a price, cities up to a total, power. Filled in from your own view only,
    each line with its reason. `due`: the game waits for your answer; `deadline`: when the suggestion is
    played for you if you have not answered. Only you ever see your sheet.

    Args:
        game_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Sheet
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    game_id: int,
    *,
    client: AuthenticatedClient,
) -> Response[Error | Sheet]:
    """Your round sheet, filled in with a suggestion

     Your answers for the whole round: the plants to open (in order, each with a max), the most you pay
    for the others, fuel up to a price, cities up to a total, power. Filled in from your own view only,
    each line with its reason. `due`: the game waits for your answer; `deadline`: when the suggestion is
    played for you if you have not answered. Only you ever see your sheet.

    Args:
        game_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Sheet]
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
) -> Error | Sheet | None:
    """Your round sheet, filled in with a suggestion

     Your answers for the whole round: the plants to open (in order, each with a max), the most you pay
    for the others, fuel up to a price, cities up to a total, power. Filled in from your own view only,
    each line with its reason. `due`: the game waits for your answer; `deadline`: when the suggestion is
    played for you if you have not answered. Only you ever see your sheet.

    Args:
        game_id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Sheet
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
        )
    ).parsed

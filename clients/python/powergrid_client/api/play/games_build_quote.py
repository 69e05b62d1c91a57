from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.build_quote import BuildQuote
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: int,
    *,
    cities: list[str] | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_cities: list[str] | Unset = UNSET
    if not isinstance(cities, Unset):
        json_cities = cities

    params["cities"] = json_cities

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/games/{game_id}/quote/".format(
            game_id=quote(str(game_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> BuildQuote | Error | None:
    if response.status_code == 200:
        response_200 = BuildQuote.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[BuildQuote | Error]:
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
    cities: list[str] | Unset = UNSET,
) -> Response[BuildQuote | Error]:
    """What building in several cities at once would cost the caller

     The cheapest order the rules allow for all of them together (build spaces plus the cheapest
    connections, each city's cost depending on the others), as the build form's total; `legal`'s `build`
    gives each city's cost alone. The same answer whether the caller uses a token or the site's session.

    Args:
        game_id (int):
        cities (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BuildQuote | Error]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        cities=cities,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: int,
    *,
    client: AuthenticatedClient,
    cities: list[str] | Unset = UNSET,
) -> BuildQuote | Error | None:
    """What building in several cities at once would cost the caller

     The cheapest order the rules allow for all of them together (build spaces plus the cheapest
    connections, each city's cost depending on the others), as the build form's total; `legal`'s `build`
    gives each city's cost alone. The same answer whether the caller uses a token or the site's session.

    Args:
        game_id (int):
        cities (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BuildQuote | Error
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        cities=cities,
    ).parsed


async def asyncio_detailed(
    game_id: int,
    *,
    client: AuthenticatedClient,
    cities: list[str] | Unset = UNSET,
) -> Response[BuildQuote | Error]:
    """What building in several cities at once would cost the caller

     The cheapest order the rules allow for all of them together (build spaces plus the cheapest
    connections, each city's cost depending on the others), as the build form's total; `legal`'s `build`
    gives each city's cost alone. The same answer whether the caller uses a token or the site's session.

    Args:
        game_id (int):
        cities (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BuildQuote | Error]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        cities=cities,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: int,
    *,
    client: AuthenticatedClient,
    cities: list[str] | Unset = UNSET,
) -> BuildQuote | Error | None:
    """What building in several cities at once would cost the caller

     The cheapest order the rules allow for all of them together (build spaces plus the cheapest
    connections, each city's cost depending on the others), as the build form's total; `legal`'s `build`
    gives each city's cost alone. The same answer whether the caller uses a token or the site's session.

    Args:
        game_id (int):
        cities (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BuildQuote | Error
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            cities=cities,
        )
    ).parsed

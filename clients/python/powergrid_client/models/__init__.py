"""Contains all the data models used in inputs/outputs"""

from .api_token import ApiToken
from .auction import Auction
from .auto_build_plan import AutoBuildPlan
from .auto_pass_plan import AutoPassPlan
from .bid_action_request import BidActionRequest
from .bid_action_type_enum import BidActionTypeEnum
from .bid_move import BidMove
from .blank_enum import BlankEnum
from .block_request import BlockRequest
from .blocked_player import BlockedPlayer
from .bot_level_enum import BotLevelEnum
from .bot_level_rating import BotLevelRating
from .build_action_request import BuildActionRequest
from .build_action_type_enum import BuildActionTypeEnum
from .build_move import BuildMove
from .build_move_cities import BuildMoveCities
from .build_plan import BuildPlan
from .build_quote import BuildQuote
from .buy_plan import BuyPlan
from .buy_plan_amounts import BuyPlanAmounts
from .buy_resources_action_request import BuyResourcesActionRequest
from .buy_resources_action_type_enum import BuyResourcesActionTypeEnum
from .buy_resources_move import BuyResourcesMove
from .buy_resources_move_prices import BuyResourcesMovePrices
from .calendar_feed import CalendarFeed
from .chat_edit_request import ChatEditRequest
from .chat_message import ChatMessage
from .chat_text_request import ChatTextRequest
from .choose_plant_action_request import ChoosePlantActionRequest
from .choose_plant_action_type_enum import ChoosePlantActionTypeEnum
from .choose_plant_move import ChoosePlantMove
from .colour_enum import ColourEnum
from .discard_plant_action_request import DiscardPlantActionRequest
from .discard_plant_action_request_drop import DiscardPlantActionRequestDrop
from .discard_plant_action_type_enum import DiscardPlantActionTypeEnum
from .discard_plant_move import DiscardPlantMove
from .discord_user import DiscordUser
from .discord_user_request import DiscordUserRequest
from .email_undeliverable import EmailUndeliverable
from .error import Error
from .error_code import ErrorCode
from .error_detail import ErrorDetail
from .error_detail_details import ErrorDetailDetails
from .events_enum import EventsEnum
from .forecast import Forecast
from .format_enum import FormatEnum
from .fuel_enum import FuelEnum
from .fuel_plan import FuelPlan
from .game import Game
from .game_create_request import GameCreateRequest
from .game_options import GameOptions
from .game_options_request import GameOptionsRequest
from .game_page import GamePage
from .game_record import GameRecord
from .game_result import GameResult
from .game_result_row import GameResultRow
from .game_status_enum import GameStatusEnum
from .games_list_status import GamesListStatus
from .invitation import Invitation
from .invitation_request import InvitationRequest
from .invitations_enum import InvitationsEnum
from .join_request import JoinRequest
from .kind_enum import KindEnum
from .language_enum import LanguageEnum
from .league import League
from .league_create_request import LeagueCreateRequest
from .league_division import LeagueDivision
from .league_member import LeagueMember
from .league_member_page import LeagueMemberPage
from .league_page import LeaguePage
from .league_season import LeagueSeason
from .league_season_summary import LeagueSeasonSummary
from .league_standing_row import LeagueStandingRow
from .league_summary import LeagueSummary
from .logged_bid import LoggedBid
from .logged_build import LoggedBuild
from .logged_buy_resources import LoggedBuyResources
from .logged_choose_plant import LoggedChoosePlant
from .logged_discard_plant import LoggedDiscardPlant
from .logged_discard_plant_drop import LoggedDiscardPlantDrop
from .logged_pass_auction import LoggedPassAuction
from .logged_pass_bid import LoggedPassBid
from .logged_power import LoggedPower
from .logged_power_hybrid import LoggedPowerHybrid
from .logged_power_hybrid_additional_property import LoggedPowerHybridAdditionalProperty
from .logged_seal_bid import LoggedSealBid
from .logged_takeback import LoggedTakeback
from .map_ import Map
from .map_area import MapArea
from .map_city import MapCity
from .map_connection import MapConnection
from .map_rules import MapRules
from .map_rules_cheapest_price import MapRulesCheapestPrice
from .map_rules_starting_market import MapRulesStartingMarket
from .map_summary import MapSummary
from .me import Me
from .move import Move
from .move_enum import MoveEnum
from .move_submit_request import MoveSubmitRequest
from .new_plant_deck_enum import NewPlantDeckEnum
from .next_game import NextGame
from .notification_mode_enum import NotificationModeEnum
from .offered_enum import OfferedEnum
from .open_plan import OpenPlan
from .owned_plant import OwnedPlant
from .owned_plant_stored import OwnedPlantStored
from .pass_auction_action_request import PassAuctionActionRequest
from .pass_auction_action_type_enum import PassAuctionActionTypeEnum
from .pass_auction_move import PassAuctionMove
from .pass_bid_action_request import PassBidActionRequest
from .pass_bid_action_type_enum import PassBidActionTypeEnum
from .pass_bid_move import PassBidMove
from .pass_when_nothing_plan import PassWhenNothingPlan
from .patched_me_request import PatchedMeRequest
from .patched_push_device_request import PatchedPushDeviceRequest
from .pending_discard import PendingDiscard
from .phase_enum import PhaseEnum
from .plan_list import PlanList
from .plan_move import PlanMove
from .plan_request import PlanRequest
from .plan_request_amounts import PlanRequestAmounts
from .plan_set import PlanSet
from .plant import Plant
from .plant_choice import PlantChoice
from .plant_deck_choice import PlantDeckChoice
from .plant_market import PlantMarket
from .player import Player
from .player_game import PlayerGame
from .player_game_page import PlayerGamePage
from .player_profile import PlayerProfile
from .player_rating import PlayerRating
from .player_reliability import PlayerReliability
from .power_action_request import PowerActionRequest
from .power_action_request_hybrid import PowerActionRequestHybrid
from .power_action_request_hybrid_additional_property import PowerActionRequestHybridAdditionalProperty
from .power_action_type_enum import PowerActionTypeEnum
from .power_move import PowerMove
from .power_plan import PowerPlan
from .practice_body_request import PracticeBodyRequest
from .proxy_bid_plan import ProxyBidPlan
from .push_device import PushDevice
from .push_key import PushKey
from .push_keys_request import PushKeysRequest
from .push_subscribe_request import PushSubscribeRequest
from .reason_enum import ReasonEnum
from .resource_prices import ResourcePrices
from .result_row import ResultRow
from .round_figures import RoundFigures
from .seal_bid_action_request import SealBidActionRequest
from .seal_bid_action_type_enum import SealBidActionTypeEnum
from .seal_bid_move import SealBidMove
from .sealed_last import SealedLast
from .sealed_last_bids import SealedLastBids
from .seat import Seat
from .seat_figures import SeatFigures
from .seat_pace import SeatPace
from .seeking_request import SeekingRequest
from .sheet import Sheet
from .sheet_answered import SheetAnswered
from .sheet_bid_line import SheetBidLine
from .sheet_bid_line_request import SheetBidLineRequest
from .sheet_build_line import SheetBuildLine
from .sheet_build_line_mode_enum import SheetBuildLineModeEnum
from .sheet_build_line_request import SheetBuildLineRequest
from .sheet_discard_line import SheetDiscardLine
from .sheet_discard_line_request import SheetDiscardLineRequest
from .sheet_open_line import SheetOpenLine
from .sheet_open_line_request import SheetOpenLineRequest
from .sheet_pass_line import SheetPassLine
from .sheet_pass_line_request import SheetPassLineRequest
from .sheet_power_line import SheetPowerLine
from .sheet_power_line_request import SheetPowerLineRequest
from .sheet_reason import SheetReason
from .sheet_reason_params import SheetReasonParams
from .sheet_reason_request import SheetReasonRequest
from .sheet_reason_request_params import SheetReasonRequestParams
from .sheet_request import SheetRequest
from .sheet_resources_line import SheetResourcesLine
from .sheet_resources_line_amounts import SheetResourcesLineAmounts
from .sheet_resources_line_mode_enum import SheetResourcesLineModeEnum
from .sheet_resources_line_request import SheetResourcesLineRequest
from .sheet_resources_line_request_amounts import SheetResourcesLineRequestAmounts
from .source_enum import SourceEnum
from .standing_row import StandingRow
from .standings import Standings
from .state import State
from .state_cities import StateCities
from .step_3_card import Step3Card
from .stream_final_standings_event import StreamFinalStandingsEvent
from .stream_game import StreamGame
from .stream_game_event import StreamGameEvent
from .stream_game_ref import StreamGameRef
from .stream_game_status import StreamGameStatus
from .stream_resync_event import StreamResyncEvent
from .stream_resync_event_reason import StreamResyncEventReason
from .stream_round_started_event import StreamRoundStartedEvent
from .stream_sheet_asked_event import StreamSheetAskedEvent
from .stream_sheet_ref import StreamSheetRef
from .stream_table_ready_event import StreamTableReadyEvent
from .stream_takeback import StreamTakeback
from .stream_takeback_asked_event import StreamTakebackAskedEvent
from .stream_takeback_event import StreamTakebackEvent
from .stream_tournament import StreamTournament
from .substitute_request import SubstituteRequest
from .takeback_answer import TakebackAnswer
from .takeback_body_request import TakebackBodyRequest
from .takeback_done import TakebackDone
from .takeback_entry import TakebackEntry
from .takeback_offer import TakebackOffer
from .takeback_request import TakebackRequest
from .takeback_status_enum import TakebackStatusEnum
from .token import Token
from .token_create_request import TokenCreateRequest
from .tokens import Tokens
from .tournament import Tournament
from .tournament_create_request import TournamentCreateRequest
from .tournament_entrant import TournamentEntrant
from .tournament_entrant_page import TournamentEntrantPage
from .tournament_join_request import TournamentJoinRequest
from .tournament_league import TournamentLeague
from .tournament_page import TournamentPage
from .tournament_player import TournamentPlayer
from .tournament_round import TournamentRound
from .tournament_round_tables import TournamentRoundTables
from .tournament_summary import TournamentSummary
from .tournament_table import TournamentTable
from .tournaments_list_status import TournamentsListStatus
from .vacation import Vacation
from .vacation_start_request import VacationStartRequest
from .variant_enum import VariantEnum
from .viewbox import Viewbox
from .webhook import Webhook
from .webhook_request import WebhookRequest
from .webhook_test import WebhookTest

__all__ = (
    "ApiToken",
    "Auction",
    "AutoBuildPlan",
    "AutoPassPlan",
    "BidActionRequest",
    "BidActionTypeEnum",
    "BidMove",
    "BlankEnum",
    "BlockedPlayer",
    "BlockRequest",
    "BotLevelEnum",
    "BotLevelRating",
    "BuildActionRequest",
    "BuildActionTypeEnum",
    "BuildMove",
    "BuildMoveCities",
    "BuildPlan",
    "BuildQuote",
    "BuyPlan",
    "BuyPlanAmounts",
    "BuyResourcesActionRequest",
    "BuyResourcesActionTypeEnum",
    "BuyResourcesMove",
    "BuyResourcesMovePrices",
    "CalendarFeed",
    "ChatEditRequest",
    "ChatMessage",
    "ChatTextRequest",
    "ChoosePlantActionRequest",
    "ChoosePlantActionTypeEnum",
    "ChoosePlantMove",
    "ColourEnum",
    "DiscardPlantActionRequest",
    "DiscardPlantActionRequestDrop",
    "DiscardPlantActionTypeEnum",
    "DiscardPlantMove",
    "DiscordUser",
    "DiscordUserRequest",
    "EmailUndeliverable",
    "Error",
    "ErrorCode",
    "ErrorDetail",
    "ErrorDetailDetails",
    "EventsEnum",
    "Forecast",
    "FormatEnum",
    "FuelEnum",
    "FuelPlan",
    "Game",
    "GameCreateRequest",
    "GameOptions",
    "GameOptionsRequest",
    "GamePage",
    "GameRecord",
    "GameResult",
    "GameResultRow",
    "GamesListStatus",
    "GameStatusEnum",
    "Invitation",
    "InvitationRequest",
    "InvitationsEnum",
    "JoinRequest",
    "KindEnum",
    "LanguageEnum",
    "League",
    "LeagueCreateRequest",
    "LeagueDivision",
    "LeagueMember",
    "LeagueMemberPage",
    "LeaguePage",
    "LeagueSeason",
    "LeagueSeasonSummary",
    "LeagueStandingRow",
    "LeagueSummary",
    "LoggedBid",
    "LoggedBuild",
    "LoggedBuyResources",
    "LoggedChoosePlant",
    "LoggedDiscardPlant",
    "LoggedDiscardPlantDrop",
    "LoggedPassAuction",
    "LoggedPassBid",
    "LoggedPower",
    "LoggedPowerHybrid",
    "LoggedPowerHybridAdditionalProperty",
    "LoggedSealBid",
    "LoggedTakeback",
    "Map",
    "MapArea",
    "MapCity",
    "MapConnection",
    "MapRules",
    "MapRulesCheapestPrice",
    "MapRulesStartingMarket",
    "MapSummary",
    "Me",
    "Move",
    "MoveEnum",
    "MoveSubmitRequest",
    "NewPlantDeckEnum",
    "NextGame",
    "NotificationModeEnum",
    "OfferedEnum",
    "OpenPlan",
    "OwnedPlant",
    "OwnedPlantStored",
    "PassAuctionActionRequest",
    "PassAuctionActionTypeEnum",
    "PassAuctionMove",
    "PassBidActionRequest",
    "PassBidActionTypeEnum",
    "PassBidMove",
    "PassWhenNothingPlan",
    "PatchedMeRequest",
    "PatchedPushDeviceRequest",
    "PendingDiscard",
    "PhaseEnum",
    "PlanList",
    "PlanMove",
    "PlanRequest",
    "PlanRequestAmounts",
    "PlanSet",
    "Plant",
    "PlantChoice",
    "PlantDeckChoice",
    "PlantMarket",
    "Player",
    "PlayerGame",
    "PlayerGamePage",
    "PlayerProfile",
    "PlayerRating",
    "PlayerReliability",
    "PowerActionRequest",
    "PowerActionRequestHybrid",
    "PowerActionRequestHybridAdditionalProperty",
    "PowerActionTypeEnum",
    "PowerMove",
    "PowerPlan",
    "PracticeBodyRequest",
    "ProxyBidPlan",
    "PushDevice",
    "PushKey",
    "PushKeysRequest",
    "PushSubscribeRequest",
    "ReasonEnum",
    "ResourcePrices",
    "ResultRow",
    "RoundFigures",
    "SealBidActionRequest",
    "SealBidActionTypeEnum",
    "SealBidMove",
    "SealedLast",
    "SealedLastBids",
    "Seat",
    "SeatFigures",
    "SeatPace",
    "SeekingRequest",
    "Sheet",
    "SheetAnswered",
    "SheetBidLine",
    "SheetBidLineRequest",
    "SheetBuildLine",
    "SheetBuildLineModeEnum",
    "SheetBuildLineRequest",
    "SheetDiscardLine",
    "SheetDiscardLineRequest",
    "SheetOpenLine",
    "SheetOpenLineRequest",
    "SheetPassLine",
    "SheetPassLineRequest",
    "SheetPowerLine",
    "SheetPowerLineRequest",
    "SheetReason",
    "SheetReasonParams",
    "SheetReasonRequest",
    "SheetReasonRequestParams",
    "SheetRequest",
    "SheetResourcesLine",
    "SheetResourcesLineAmounts",
    "SheetResourcesLineModeEnum",
    "SheetResourcesLineRequest",
    "SheetResourcesLineRequestAmounts",
    "SourceEnum",
    "StandingRow",
    "Standings",
    "State",
    "StateCities",
    "Step3Card",
    "StreamFinalStandingsEvent",
    "StreamGame",
    "StreamGameEvent",
    "StreamGameRef",
    "StreamGameStatus",
    "StreamResyncEvent",
    "StreamResyncEventReason",
    "StreamRoundStartedEvent",
    "StreamSheetAskedEvent",
    "StreamSheetRef",
    "StreamTableReadyEvent",
    "StreamTakeback",
    "StreamTakebackAskedEvent",
    "StreamTakebackEvent",
    "StreamTournament",
    "SubstituteRequest",
    "TakebackAnswer",
    "TakebackBodyRequest",
    "TakebackDone",
    "TakebackEntry",
    "TakebackOffer",
    "TakebackRequest",
    "TakebackStatusEnum",
    "Token",
    "TokenCreateRequest",
    "Tokens",
    "Tournament",
    "TournamentCreateRequest",
    "TournamentEntrant",
    "TournamentEntrantPage",
    "TournamentJoinRequest",
    "TournamentLeague",
    "TournamentPage",
    "TournamentPlayer",
    "TournamentRound",
    "TournamentRoundTables",
    "TournamentsListStatus",
    "TournamentSummary",
    "TournamentTable",
    "Vacation",
    "VacationStartRequest",
    "VariantEnum",
    "Viewbox",
    "Webhook",
    "WebhookRequest",
    "WebhookTest",
)

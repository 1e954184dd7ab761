"""The players' side: identity (register, me, roles, erasure), ranked play's leaderboards,
ratings and stats, invitations and challenges, follow and block. Four declarations, in the
composition root's order."""

from __future__ import annotations

from typing import Any

from infra.projections.invitations import InvitationNotices, Invitations
from infra.projections.rating_notices import RatingNotices
from infra.projections.ratings import Ratings
from infra.projections.social import SocialTies
from services.features import Feature, plain
from services.social import invitations


def _player_routes() -> list[Any]:
    from services.social.routes import players
    return list(players.ROUTES)


def _rating_routes() -> list[Any]:
    from services.social.routes import ratings
    return [ratings.leaderboard, ratings.player_ratings, ratings.player_stats]


def _invitation_routes() -> list[Any]:
    from services.social.routes import invitations as routes
    return list(routes.ROUTES)


def _social_routes() -> list[Any]:
    from services.social.routes import social
    return list(social.ROUTES)


PLAYERS = Feature("players", routes=_player_routes)
RATINGS = Feature("ratings", routes=_rating_routes, projections=(plain(Ratings),),
                  account_events=(plain(RatingNotices),))   # rating_changed on the players' account streams
INVITATIONS = Feature("invitations", routes=_invitation_routes, projections=(plain(Invitations),),
                      account_events=(plain(InvitationNotices),), audience_lookups=(invitations.audience,))
FOLLOW_AND_BLOCK = Feature("follow and block", routes=_social_routes, projections=(plain(SocialTies),))

"""Every variable an email's templates read is declared in its kind's context
(``games.notifications.contexts``) or in ``Common``: a template that reads a name no builder
declares would render it empty in every email, silently. The templates (subject, text, HTML and
the base templates they extend) are parsed, not rendered, so every branch is read."""

from __future__ import annotations

import pytest
from django.template import Node, NodeList
from django.template.base import FilterExpression, Token, TokenType, Variable
from django.template.defaulttags import ForNode, WithNode
from django.template.loader_tags import ExtendsNode, IncludeNode
from django.templatetags.i18n import BlockTranslateNode

from games.fastpath import rendering
from games.notifications import contexts, emails

#: The context each template reads (the builders in ``emails.BUILDERS`` answer these).
CONTEXTS: dict[str, type] = {
    "turn": contexts.TurnContext,
    "reply": contexts.ReplyContext,
    "takeback": contexts.TakebackContext,
    "takeback_asked": contexts.TakebackAskedContext,
    "takeback_declined": contexts.TakebackDeclinedContext,
    "game_started": contexts.StartedContext,
    "game_over": contexts.OverContext,
    "timeout": contexts.TimeoutContext,
    "bot_took_over": contexts.BotContext,
    "seat": contexts.SeatContext,
    "digest": contexts.DigestContext,
    "game_full": contexts.FullContext,
    "invited": contexts.InvitedContext,
    "webhook_disabled": contexts.WebhookDisabledContext,
    "open_warning": contexts.OpenWarningContext,
    "open_closed": contexts.OpenClosedContext,
    "restored": contexts.RestoredContext,
    "table_ready": contexts.TableReadyContext,
    "round_started": contexts.RoundStartedContext,
    "final_standings": contexts.FinalStandingsContext,
}


def _keys(td: type) -> set[str]:
    return set(td.__required_keys__) | set(td.__optional_keys__)  # type: ignore[attr-defined]


class _Reads:
    """The names a template reads from its context (``free``) and those it binds itself
    (loop variables, ``with`` and ``blocktranslate with`` names: ``bound``)."""

    def __init__(self) -> None:
        self.free: set[str] = set()
        # The context's builtins, and what the tags bind.
        self.bound: set[str] = {"forloop", "block", "True", "False", "None"}
        self._seen: set[int] = set()

    def template(self, name: str) -> None:
        self.walk(rendering.engine().get_template(name).nodelist)

    def variable(self, var: object) -> None:
        if isinstance(var, Variable) and var.lookups:
            self.free.add(var.lookups[0])

    def walk(self, obj: object) -> None:
        if id(obj) in self._seen:
            return
        self._seen.add(id(obj))
        if isinstance(obj, FilterExpression):
            self.variable(obj.var)
            for _func, args in obj.filters:
                for is_var, arg in args:
                    if is_var:
                        self.variable(arg)
            return
        if isinstance(obj, Token):
            if obj.token_type == TokenType.VAR:  # {{ name }} inside blocktranslate
                self.free.add(obj.contents.split("|")[0].split(".")[0].strip())
            return
        if isinstance(obj, ForNode):
            self.bound.update(obj.loopvars)
        if isinstance(obj, (WithNode, BlockTranslateNode)):
            self.bound.update(obj.extra_context)
        if isinstance(obj, BlockTranslateNode):
            self.bound.update(x for x in (obj.countervar, obj.asvar) if x)
        if isinstance(obj, (ExtendsNode, IncludeNode)):
            target = obj.parent_name if isinstance(obj, ExtendsNode) else obj.template
            assert isinstance(target.var, str), "a template named by a variable"
            self.template(target.var)
        if isinstance(obj, (list, tuple, NodeList)):
            for item in obj:
                self.walk(item)
        elif isinstance(obj, dict):
            for item in obj.values():
                self.walk(item)
        elif isinstance(obj, Node) or type(obj).__module__.startswith("django.template"):
            # Nodes and what they hold: an ``if``'s conditions (``TemplateLiteral`` and the
            # operators of ``smartif``), a ``for``'s sequence, filters' arguments.
            for key, item in vars(obj).items():
                if key not in ("token", "origin"):  # the node's own source, not its content
                    self.walk(item)


def test_every_kind_has_its_context():
    assert set(CONTEXTS) == {template for template, _builder in emails.BUILDERS.values()}


@pytest.mark.parametrize("template", sorted(CONTEXTS))
def test_a_template_reads_only_declared_variables(template):
    reads = _Reads()
    for suffix in ("_subject.txt", ".txt", ".html"):
        reads.template(f"emails/{template}{suffix}")
    declared = _keys(CONTEXTS[template]) | _keys(contexts.Common)
    undeclared = reads.free - reads.bound - declared
    assert not undeclared, f"emails/{template}.* read undeclared {sorted(undeclared)}"
    assert reads.free & _keys(CONTEXTS[template]), "the walk found none of the kind's variables"

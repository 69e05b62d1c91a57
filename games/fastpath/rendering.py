"""Rendering email templates, translated once per language instead of once per email.

An email's three templates (subject, text, HTML, the last two extending ``emails/base.*``) hold
about 35 ``{% translate %}`` / ``{% blocktranslate %}`` tags. Rendered the usual way, each one is
a ``gettext`` call per email (through the active-translation lookup) - with the template machinery
around it, most of a worker's CPU per email once the MIME building is gone (``wire``).

``render(name, context)`` renders with an engine of its own (the project's template directories,
libraries and builtins; no context processors, as ``render_to_string`` without a request) whose
loader keeps one compiled copy of each template PER LANGUAGE, and rewrites that copy once, in that
language, when it is loaded:

* a ``{% translate "literal" %}`` (no variable, filter, context or ``as``) becomes its rendered
  text, kept for both autoescape modes (rendered once by Django's own node to get each);
* a ``{% blocktranslate %}`` (no ``context``, no ``asvar``) keeps its variables, rendered per
  email as Django does, but its message is looked up once (once per count for a plural);
  anything unusual (a bad count, a message that does not format) goes to Django's own code.

The language of a copy is the one active when it is loaded, so ``render`` must be called inside
``translation.override(language)`` (``emails.email_build`` is); a template using
``{% language %}`` is not rewritten. Nothing of one email is kept for another: the copies hold
only template text and translations, never context values (``test_rendering`` checks that a
batch of emails to different people in different languages equals what Django renders alone).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterable
from decimal import Decimal

from django.template import Context, Engine, engines
from django.template.base import (
    FilterExpression,
    Node,
    NodeList,
    Origin,
    Template,
    render_value_in_context,
)
from django.template.defaulttags import IfNode
from django.template.loader_tags import ExtendsNode
from django.template.loaders import cached
from django.templatetags.i18n import BlockTranslateNode, LanguageNode, TranslateNode
from django.utils import translation

_lock = threading.RLock()  # a copy's parent is loaded (and rewritten) while it is rewritten


class _Translated(Node):
    """A ``{% translate "literal" %}`` already rendered in the copy's language."""

    child_nodelists = ()

    def __init__(self, original: TranslateNode, escaped: str, raw: str) -> None:
        self.token = original.token
        self.origin = original.origin
        self.escaped, self.raw = escaped, raw

    def render(self, context: Context) -> str:
        return self.escaped if context.autoescape else self.raw


class _BlockTranslated(BlockTranslateNode):
    """``{% blocktranslate %}`` whose message was looked up once in the copy's language."""

    message: str
    plural_messages: dict[object, str]
    names: list[str]

    def render(self, context: Context, nested: bool = False) -> str:
        if nested or self.message_context or self.asvar:
            return super().render(context, nested)
        context.update({var: val.resolve(context) for var, val in self.extra_context.items()})
        try:
            prepared = self._prepare(context)
        finally:
            context.pop()
        if prepared is not None:
            result, data = prepared
            try:
                return result % data
            except (KeyError, ValueError):
                pass
        return super().render(context, nested)  # Django's own way, with its errors

    def _prepare(self, context: Context) -> tuple[str, dict[str, str]] | None:
        if self.plural and self.countervar and self.counter:
            count = self.counter.resolve(context)
            if not isinstance(count, (Decimal, float, int)):
                return None
            context[self.countervar] = count
            result = self.plural_messages.get(count)
            if result is None:
                singular, _ = self.render_token_list(self.singular)
                plural, _ = self.render_token_list(self.plural)
                result = translation.ngettext(singular, plural, count)  # type: ignore[arg-type]
                if len(self.plural_messages) < 256:
                    self.plural_messages[count] = result
        else:
            result = self.message
        assert context.template is not None
        default = context.template.engine.string_if_invalid
        data = {}
        for key in self.names:
            try:
                value = context[key]
            except KeyError:
                value = default % key if "%s" in default else default
            data[key] = render_value_in_context(value, context)
        return result, data


def _constant_translate(node: Node) -> bool:
    if type(node) is not TranslateNode or node.asvar or node.message_context or node.noop:
        return False
    fe = node.filter_expression
    var = getattr(fe, "var", None)
    return not fe.filters and getattr(var, "literal", None) is not None


def _rewrite_node(node: Node) -> Node | None:
    if isinstance(node, TranslateNode) and _constant_translate(node):
        escaped = node.render(Context(autoescape=True))
        raw = node.render(Context(autoescape=False))
        return _Translated(node, str(escaped), str(raw))
    if type(node) is BlockTranslateNode and not node.message_context and not node.asvar:
        singular, names = node.render_token_list(node.singular)
        if node.plural and node.countervar and node.counter:
            _plural, plural_names = node.render_token_list(node.plural)
            names = names + plural_names
        node.__class__ = _BlockTranslated
        assert isinstance(node, _BlockTranslated)
        node.message = translation.gettext(singular)
        node.plural_messages = {}
        node.names = names
        return None
    return None


class _Parent:
    """Stands for an ``{% extends "literal" %}``'s name: resolves to the parent's copy in the same
    language (``ExtendsNode`` takes a Template as it is), instead of a loader lookup per render."""

    def __init__(self, original: FilterExpression, template: Template) -> None:
        self.token, self.filters, self.var = original.token, original.filters, original.var
        self.template = template

    def resolve(self, context: Context, ignore_failures: bool = False) -> Template:
        return self.template


def _rewrite(nodelist: NodeList) -> None:
    for i, node in enumerate(nodelist):
        if isinstance(node, ExtendsNode):
            fe = node.parent_name
            if isinstance(fe, FilterExpression) and not fe.filters and isinstance(fe.var, str):
                node.parent_name = _Parent(fe, engine().get_template(fe.var))  # type: ignore[assignment]
        new = _rewrite_node(node)
        if new is not None:
            nodelist[i] = new
            continue
        if isinstance(node, IfNode):
            for _cond, child in node.conditions_nodelists:
                _rewrite(child)
            continue
        for attr in node.child_nodelists:
            nested = getattr(node, attr, None)
            if isinstance(nested, NodeList):
                _rewrite(nested)


def _uses_language_tag(template: Template) -> bool:
    return bool(template.nodelist.get_nodes_by_type(LanguageNode))


class Loader(cached.Loader):
    """The cached loader, with one compiled copy of each template per active language, rewritten
    for that language on first use (see the module)."""

    def cache_key(self, template_name: str, skip: list[Origin] | None = None) -> str:
        return f"{super().cache_key(template_name, skip)}@{translation.get_language()}"

    def get_template(self, template_name: str, skip: list[Origin] | None = None) -> Template:
        template = super().get_template(template_name, skip)
        if getattr(template, "_pretranslated", None) is None:
            with _lock:
                if getattr(template, "_pretranslated", None) is None:
                    if not _uses_language_tag(template):
                        _rewrite(template.nodelist)
                    template._pretranslated = translation.get_language()  # type: ignore[attr-defined]
        return template


@functools.lru_cache(maxsize=1)
def engine() -> Engine:
    """The email engine: the project's DjangoTemplates settings, our loader, no context
    processors (``render_to_string`` without a request has none either)."""
    base = engines["django"].engine  # type: ignore[attr-defined]
    inner = ["django.template.loaders.filesystem.Loader"]
    if base.app_dirs or any("app_directories" in str(x) for x in _flatten_loaders(base.loaders)):
        inner.append("django.template.loaders.app_directories.Loader")
    return Engine(
        dirs=list(base.dirs),
        loaders=[("games.fastpath.rendering.Loader", inner)],
        debug=base.debug,
        string_if_invalid=base.string_if_invalid,
        file_charset=base.file_charset,
        libraries=dict(base.libraries),
        builtins=[b for b in base.builtins if b not in Engine.default_builtins],
        autoescape=base.autoescape,
    )


def _flatten_loaders(loaders: Iterable[object]) -> list[object]:
    out: list[object] = []
    for entry in loaders:
        if isinstance(entry, (tuple, list)):
            out.append(entry[0])
            out += _flatten_loaders(entry[1]) if len(entry) > 1 else []
        else:
            out.append(entry)
    return out


_copies: dict[tuple[str, str | None], Template] = {}


def load(name: str, language: str | None = None) -> Template:
    """The copy of template ``name`` for the active language (``language``, when given, must be
    the active one: it only saves looking it up)."""
    if language is None:
        language = translation.get_language()
    key = (name, language)
    template = _copies.get(key)
    if template is None:
        template = _copies[key] = engine().get_template(name)
    return template


def render(name: str, context: dict[str, object], language: str | None = None) -> str:
    """``render_to_string(name, context)`` for an email template, in the active language."""
    return str(load(name, language).render(Context(context)))


def reset() -> None:
    """Forget the compiled copies (tests that change templates or translations)."""
    _copies.clear()
    if engine.cache_info().currsize:
        engine().template_loaders[0].reset()

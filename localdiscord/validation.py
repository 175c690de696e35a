"""Discord's own checks: message and modal limits, command schemas, and slash option values.

Errors use Discord's "Invalid Form Body" shape so discord.py raises the same HTTPException it would in production.
"""

from __future__ import annotations

from typing import Any

from localdiscord.responses import DiscordError

MAX_CONTENT = 2000
MAX_EMBEDS = 10
EMBED_TOTAL = 6000
EMBED_LIMITS = {"title": 256, "description": 4096}
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_SELECT_OPTIONS = 25
SELECT_TYPES = (3, 5, 6, 7, 8)
# Components v2 layout types the fake accepts without deeper checks (text display, section, media, container...).
LAYOUT_TYPES = (9, 10, 11, 12, 13, 14, 17)


class FormErrors:
    """Collects field errors and raises them the way Discord reports them (code 50035)."""

    def __init__(self) -> None:
        self.errors: dict[str, Any] = {}
        self.flat: list[str] = []

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        """Record ``message`` for the field at ``path`` (e.g. ("components", 0, "components", 1, "custom_id"))."""
        node = self.errors
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
        self.flat.append(f"{'.'.join(map(str, path))}: {message}")

    def max_length(self, path: tuple[str | int, ...], value: Any, limit: int) -> None:
        """Check a string's length against Discord's limit."""
        if isinstance(value, str) and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def raise_if_any(self) -> None:
        """Raise the collected errors as a 400 Invalid Form Body."""
        if self.errors:
            raise DiscordError(400, 50035, "Invalid Form Body: " + "; ".join(self.flat), self.errors)


def check_message(payload: dict[str, Any], *, files: int = 0, creating: bool = True) -> None:
    """Raise DiscordError if Discord would reject this message body (create or edit)."""
    form = FormErrors()
    form.max_length(("content",), payload.get("content"), MAX_CONTENT)
    embeds = payload.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        form.add(("embeds",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
    _check_embeds(form, embeds)
    _check_components(form, payload.get("components") or [], v2=bool((payload.get("flags") or 0) & (1 << 15)))
    _check_allowed_mentions(form, payload.get("allowed_mentions"))
    form.raise_if_any()
    empty = not any(payload.get(k) for k in ("content", "embeds", "components", "sticker_ids", "poll"))
    if creating and empty and not files:
        raise DiscordError(400, 50006, "Cannot send an empty message")


def _check_embeds(form: FormErrors, embeds: list[dict[str, Any]]) -> None:
    total = 0
    for i, embed in enumerate(embeds):
        for key, limit in EMBED_LIMITS.items():
            form.max_length(("embeds", i, key), embed.get(key), limit)
            total += len(embed.get(key) or "")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            form.add(("embeds", i, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, fld in enumerate(fields):
            form.max_length(("embeds", i, "fields", j, "name"), fld.get("name"), 256)
            form.max_length(("embeds", i, "fields", j, "value"), fld.get("value"), 1024)
            for key in ("name", "value"):
                if not str(fld.get(key) or "").strip():
                    form.add(("embeds", i, "fields", j, key), "BASE_TYPE_REQUIRED", "This field is required")
            total += len(fld.get("name") or "") + len(fld.get("value") or "")
        footer, author = embed.get("footer") or {}, embed.get("author") or {}
        form.max_length(("embeds", i, "footer", "text"), footer.get("text"), 2048)
        form.max_length(("embeds", i, "author", "name"), author.get("name"), 256)
        total += len(footer.get("text") or "") + len(author.get("name") or "")
    if total > EMBED_TOTAL:
        form.add(("embeds",), "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL}")


def _check_components(form: FormErrors, rows: list[dict[str, Any]], *, v2: bool) -> None:
    if not v2 and len(rows) > MAX_ROWS:
        form.add(("components",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ROWS} or fewer in length.")
    seen: set[str] = set()
    for i, row in enumerate(rows):
        _check_component(form, ("components", i), row, seen, top_level=True, v2=v2)


def _check_component(
    form: FormErrors, path: tuple[str | int, ...], comp: dict[str, Any], seen: set[str], *, top_level: bool, v2: bool
) -> None:
    kind = comp.get("type")
    if "custom_id" in comp:
        custom_id = comp["custom_id"]
        if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
            form.add((*path, "custom_id"), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_CUSTOM_ID} in length.")
        elif custom_id in seen:
            form.add((*path, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
        seen.add(custom_id)
    if kind == 1:
        children = comp.get("components") or []
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        if not children or len(children) > MAX_BUTTONS_PER_ROW or (selects and len(children) > 1):
            form.add(
                (*path, "components"),
                "BASE_TYPE_BAD_LENGTH",
                "An action row holds 1 to 5 buttons or exactly one select menu",
            )
        for j, child in enumerate(children):
            if child.get("type") == 1:
                form.add((*path, "components", j), "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "Action rows cannot nest")
            _check_component(form, (*path, "components", j), child, seen, top_level=False, v2=v2)
    elif kind == 2:
        form.max_length((*path, "label"), comp.get("label"), MAX_LABEL)
        is_link, is_premium = comp.get("style") == 5, comp.get("style") == 6
        if is_link != ("url" in comp) or (not is_link and not is_premium and "custom_id" not in comp):
            form.add(path, "BUTTON_COMPONENT_INVALID", "A link button needs a url and no custom_id; others a custom_id")
        if top_level:
            form.add(path, "UNION_TYPE_CHOICES", "Buttons must be inside an action row")
    elif kind in SELECT_TYPES:
        options = comp.get("options") or []
        if kind == 3 and not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            form.add((*path, "options"), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_SELECT_OPTIONS}.")
        for k, option in enumerate(options):
            form.max_length((*path, "options", k, "label"), option.get("label"), 100)
            form.max_length((*path, "options", k, "value"), option.get("value"), 100)
            form.max_length((*path, "options", k, "description"), option.get("description"), 100)
        form.max_length((*path, "placeholder"), comp.get("placeholder"), 150)
        low, high = comp.get("min_values", 1), comp.get("max_values", 1)
        if not 0 <= low <= high <= MAX_SELECT_OPTIONS or (kind == 3 and high > len(options)):
            form.add((*path, "max_values"), "BASE_TYPE_BAD_VALUE", "min_values/max_values out of range")
        if top_level:
            form.add(path, "UNION_TYPE_CHOICES", "Select menus must be inside an action row")
    elif v2 and kind in LAYOUT_TYPES:
        for j, child in enumerate(comp.get("components") or []):
            _check_component(form, (*path, "components", j), child, seen, top_level=False, v2=v2)
        if "accessory" in comp:
            _check_component(form, (*path, "accessory"), comp["accessory"], seen, top_level=False, v2=v2)
    else:
        form.add((*path, "type"), "UNION_TYPE_CHOICES", f"Component type {kind} is not allowed here")


def _check_allowed_mentions(form: FormErrors, allowed: dict[str, Any] | None) -> None:
    if not allowed:
        return
    parse = allowed.get("parse") or []
    for kind in ("users", "roles"):
        if kind in parse and allowed.get(kind):
            form.add(
                ("allowed_mentions", kind), "MENTION_PARSE_CONFLICT", f"parse:[{kind}] conflicts with {kind}:[...]"
            )
        if len(allowed.get(kind) or []) > 100:
            form.add(("allowed_mentions", kind), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")


def check_modal(data: dict[str, Any]) -> None:
    """Raise DiscordError if Discord would reject this modal (type 9 callback data)."""
    form = FormErrors()
    form.max_length(("title",), data.get("title"), 45)
    custom_id = data.get("custom_id") or ""
    if not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
        form.add(("custom_id",), "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_CUSTOM_ID} in length.")
    rows = data.get("components") or []
    if not 1 <= len(rows) <= 5:
        form.add(("components",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    for i, row in enumerate(rows):
        for field in modal_fields(row):
            if field.get("type") == 4:
                form.max_length(("components", i, "label"), field.get("label"), 45)
                form.max_length(("components", i, "placeholder"), field.get("placeholder"), 100)
                form.max_length(("components", i, "value"), field.get("value"), 4000)
                if not 0 <= field.get("min_length", 0) <= field.get("max_length", 4000) <= 4000:
                    form.add(("components", i, "max_length"), "BASE_TYPE_BAD_VALUE", "min/max_length out of range")
    form.raise_if_any()


def check_choices(data: dict[str, Any]) -> None:
    """Raise DiscordError if Discord would reject these autocomplete choices (type 8 callback data)."""
    form = FormErrors()
    choices = data.get("choices")
    if not isinstance(choices, list) or len(choices) > 25:
        form.add(("choices",), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        form.raise_if_any()
    for i, choice in enumerate(choices or []):
        if not 1 <= len(str(choice.get("name", ""))) <= 100:
            form.add(("choices", i, "name"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        if isinstance(choice.get("value"), str) and len(choice["value"]) > 100:
            form.add(("choices", i, "value"), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
    form.raise_if_any()


def modal_fields(row: dict[str, Any]) -> list[dict[str, Any]]:
    """The input components in one top-level modal component: an action row's children or a label's child."""
    if row.get("type") == 1:
        return list(row.get("components") or [])
    if row.get("type") == 18:
        return [row["component"]]
    return []


def valid_name(name: Any) -> bool:
    """Discord's command/option name rule: 1–32 of letters, digits, - _ ', no uppercase letters."""
    return (
        isinstance(name, str)
        and 1 <= len(name) <= 32
        and all(c.isalnum() or c in "-_'" for c in name)
        and name == name.lower()
    )


def check_commands(commands: list[dict[str, Any]]) -> None:
    """Raise DiscordError if Discord would refuse this bulk overwrite of application commands."""
    form = FormErrors()
    if len(commands) > 100:
        form.add((), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
    names = [(c.get("type", 1), c.get("name")) for c in commands]
    for i, command in enumerate(commands):
        if names.count(names[i]) > 1:
            form.add((i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
        chat_input = command.get("type", 1) == 1
        _check_named(form, (i,), command, description_required=chat_input)
        if chat_input:
            _check_options(form, (i, "options"), command.get("options") or [], depth=0)
    form.raise_if_any()


def _check_named(
    form: FormErrors, path: tuple[str | int, ...], item: dict[str, Any], *, description_required: bool
) -> None:
    if not valid_name(item.get("name")):
        form.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"Invalid name {item.get('name')!r}")
    description = item.get("description") or ""
    if description_required and not 1 <= len(description) <= 100:
        form.add((*path, "description"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")


def _check_options(form: FormErrors, path: tuple[str | int, ...], options: list[dict[str, Any]], depth: int) -> None:
    if len(options) > 25:
        form.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    seen_optional = False
    for j, option in enumerate(options):
        where = (*path, j)
        _check_named(form, where, option, description_required=True)
        kind = option.get("type")
        if kind in (1, 2):
            if depth >= (1 if kind == 2 else 2):
                form.add((*where, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Subcommands nest too deep")
            _check_options(form, (*where, "options"), option.get("options") or [], depth + 1)
            continue
        if option.get("required"):
            if seen_optional:
                form.add(
                    (*where, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required after optional"
                )
        else:
            seen_optional = True
        choices = option.get("choices") or []
        if len(choices) > 25:
            form.add((*where, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        if choices and option.get("autocomplete"):
            form.add((*where, "autocomplete"), "BASE_TYPE_BAD_VALUE", "Autocomplete and choices are exclusive")
        for k, choice in enumerate(choices):
            form.max_length((*where, "choices", k, "name"), choice.get("name"), 100)


API_STRING_MAX = 6000
"""The longest string option value Discord accepts at all (the most a command may declare)."""
API_INTEGER_MAX = 2**53
"""Integer option values beyond this are refused by Discord's API itself, whatever the client."""


def check_option_value(option: dict[str, Any], value: Any, *, client: bool = True) -> str | None:
    """Why Discord would refuse ``value`` for this option, or None if it is acceptable.

    With ``client`` False, only what Discord's API itself enforces is checked (the option's type, 6,000
    characters, ±2^53), not what its client checks against the schema (choices, ranges, lengths): a modified
    client, or one holding an out-of-date copy of the commands, sends values outside those.
    """
    kind, name = option["type"], option["name"]
    choices = option.get("choices")
    if client and choices and not option.get("autocomplete") and value not in [c["value"] for c in choices]:
        return f"{name}: {value!r} is not one of the choices {[c['value'] for c in choices]}"
    if kind == 3:
        if not isinstance(value, str):
            return f"{name}: expected a string, got {value!r}"
        low, high = (
            (option.get("min_length", 0), option.get("max_length", API_STRING_MAX)) if client else (0, API_STRING_MAX)
        )
        if not low <= len(value) <= high:
            return f"{name}: length {len(value)} outside {low}..{high}"
    elif kind in (4, 10):
        if isinstance(value, bool) or not isinstance(value, int | float) or (kind == 4 and not isinstance(value, int)):
            return f"{name}: expected {'an integer' if kind == 4 else 'a number'}, got {value!r}"
        low, high = (option.get("min_value"), option.get("max_value")) if client else (None, None)
        if (low is not None and value < low) or (high is not None and value > high):
            return f"{name}: {value} outside {low}..{high}"
        if abs(value) > API_INTEGER_MAX:
            return f"{name}: {value} is beyond what Discord accepts"
    elif kind == 5 and not isinstance(value, bool):
        return f"{name}: expected a boolean, got {value!r}"
    return None

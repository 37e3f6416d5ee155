"""The structured-output model the provider tests share: nested objects, optional fields,
enums, lists and constraints."""

from __future__ import annotations

import enum

import pydantic


class Kind(enum.Enum):
    HOUSE = "house"
    FLAT = "flat"


class Room(pydantic.BaseModel):
    name: str = pydantic.Field(min_length=1, max_length=40, description="what the room is called")
    area: float = pydantic.Field(gt=0, le=500)


class Listing(pydantic.BaseModel):
    """A property listing."""

    title: str
    kind: Kind
    rooms: list[Room] = pydantic.Field(min_length=1, max_length=12)
    tags: list[str] = []
    garden: Room | None = None
    floor: int | None = pydantic.Field(default=None, ge=0)


LISTING_JSON = (
    '{"title": "Sunny flat", "kind": "flat", "rooms": [{"name": "kitchen", "area": 12.5}], '
    '"tags": null, "garden": null, "floor": 3}'
)
LISTING = Listing(
    title="Sunny flat", kind=Kind.FLAT, rooms=[Room(name="kitchen", area=12.5)], floor=3
)
DICT_SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "zip": {"type": "string", "maxLength": 5}},
    "required": ["city"],
}

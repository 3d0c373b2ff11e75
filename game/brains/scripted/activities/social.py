"""Activities out and among others: parties and events, eating out, the pub and the cafe,
errands, company, walks and exercise.
"""

from __future__ import annotations

from ..spots import (
    BAR_COUNTER,
    BAR_SEAT,
    CAFE_COUNTER,
    CAFE_FLOOR,
    CAFE_SEAT,
    FOUNTAIN,
    JUKEBOX,
    LIVING_ROOM,
    PARK_BENCH,
    PARK_GARDEN,
    POND,
    POOL_TABLE,
    SOFA,
)
from .kind import Activity

PARTY_PREP = Activity(
    "party_prep",
    (
        "decorat",
        r"prepar\w* .{0,30}(?:party|celebration)",
        r"bak\w* .{0,30}(?:party|celebration)",
        "setting up for",
    ),
    first=(("clearing space for the guests", 10, None), ("hanging up decorations", 15, None)),
    middle=(
        ("putting flowers on the tables", 10, None),
        ("setting out snacks and drinks", 10, None),
        ("hanging up streamers", 10, None),
        ("arranging the chairs", 10, None),
        ("writing a welcome sign", 10, None),
        ("baking treats for the {event}", 15, None),
    ),
    last=(("checking that everything is ready for the {event}", 5, None),),
    hours=(
        "clearing space and hanging up decorations for the {event}",
        "decorating for the {event}",
        "checking the decorations for the {event} are ready",
    ),
)

EVENT_VISIT = Activity(
    "event_visit",
    (
        r"going to .{0,40}(?:exhibition|concert|show|opening|reading|festival|fair|rally|"
        r"debate|meeting|gathering|wedding|picnic|screening|match|event)",
        r"the event\b",
    ),
    first=(("arriving and saying hello", 5, None),),
    middle=(
        ("looking around", 10, None),
        ("chatting with the other guests", 15, None),
        ("hearing what the host has to say", 10, None),
        ("getting a drink", 5, None),
    ),
    last=(("saying goodbye and heading out", 5, None),),
    hours=(
        "arriving at the {event} and saying hello",
        "taking in the {event} with the other guests",
        "leaving the {event} and heading off",
    ),
)

# Hosting an event the words give no kind of (a quiz night, a stargazing evening): the
# planner's own 'hosting the X at P' is this (classify), a party's is a party.
HOSTING = Activity(
    "hosting",
    (),
    first=(("welcoming the first guests", 10, None),),
    middle=(
        ("chatting with the guests", 15, None),
        ("making sure everyone has what they need", 10, None),
        ("introducing guests to each other", 10, None),
        ("telling the guests about the {event}", 10, None),
        ("getting a drink for a guest", 5, None),
        ("thanking people for coming", 5, None),
    ),
    last=(("seeing the last guests off", 5, None),),
    hours=(
        "welcoming the guests to the {event}",
        "looking after the guests at the {event}",
        "seeing the guests off after the {event}",
    ),
)

PARTY = Activity(
    "party",
    ("party", "celebration", "festivities", "hosting"),
    # guests at the tables, the counter, the floor (in a cafe; elsewhere the place)
    first=(("arriving and greeting everyone", 10, CAFE_FLOOR),),
    middle=(
        ("chatting with the guests", 15, CAFE_SEAT),
        ("getting a drink and a snack", 5, CAFE_COUNTER),
        ("dancing to the music", 10, CAFE_FLOOR),
        ("laughing with friends", 10, CAFE_SEAT),
        ("meeting new people at the {event}", 10, CAFE_FLOOR),
        ("toasting with the others", 5, CAFE_COUNTER),
        ("listening to the music", 10, CAFE_SEAT),
        ("trying the food", 10, CAFE_COUNTER),
    ),
    last=(("saying goodbye to everyone", 5, CAFE_FLOOR),),
    hours=(
        "arriving at the {event} and greeting everyone",
        "enjoying the {event} with the guests",
        "saying goodbye at the end of the {event}",
    ),
)

EATING_OUT = Activity(
    "eating_out",
    ("breakfast", "lunch", "dinner", "eat", "meal", "snack", "supper", "picnic"),
    first=(("ordering {meal}", 5, CAFE_COUNTER),),
    middle=(
        ("eating {meal}", 15, CAFE_SEAT),
        ("chatting with the people at the next table", 10, CAFE_SEAT),
        ("watching people go by", 5, CAFE_SEAT),
        ("enjoying {meal}", 10, CAFE_SEAT),
    ),
    last=(("paying the bill", 5, CAFE_COUNTER),),
    hours=("ordering {meal}", "eating {meal}", "finishing {meal} and paying"),
    at_home=False,
    meal=True,
)

SHOPPING = Activity(
    "shopping",
    ("buying", "shopping", "browsing", "pick(?:ing)? up (?:some|groceries)", "errand"),
    middle=(
        ("looking along the shelves", 10, None),
        ("picking out what is needed", 10, None),
        ("comparing prices", 5, None),
        ("asking the shopkeeper a question", 5, None),
    ),
    last=(("paying at the counter", 5, None),),
    hours=(
        "starting the shopping",
        "shopping for what is needed",
        "paying and finishing the shopping",
    ),
)

PUB = Activity(
    "pub",
    ("pub", "beer", "drink", "pint"),
    first=(("ordering a drink at the bar", 5, BAR_COUNTER),),
    middle=(
        ("sipping a drink", 10, BAR_SEAT),
        ("chatting with friends at the pub", 15, BAR_SEAT),
        ("playing a round of pool", 15, POOL_TABLE),
        ("picking a song on the jukebox", 5, JUKEBOX),
        ("watching the football on the pub TV", 10, BAR_SEAT),
    ),
    last=(("settling the tab", 5, BAR_COUNTER),),
    hours=(
        "getting a drink at the bar",
        "having a drink with friends at the pub",
        "finishing the last drink at the pub",
    ),
    leisure=True,
)

EXERCISE = Activity(
    "exercise",
    ("run\\b", "running", "jog", "train", "exercis", "workout", "yoga", "stretch"),
    first=(("warming up with stretches", 5, None),),
    middle=(
        ("running", 15, None),
        ("doing sprints", 10, None),
        ("doing push-ups", 5, None),
        ("running another lap", 10, None),
        ("catching breath", 5, None),
        ("cooling down with a slow jog", 5, None),
    ),
)

WALKING = Activity(
    "walking",
    ("walk", "stroll"),
    middle=(
        ("walking along the path", 10, None),
        ("stopping to look at the pond", 5, POND),
        ("sitting on a bench for a while", 10, PARK_BENCH),
        ("watching the birds", 5, PARK_GARDEN),
        ("walking past the fountain", 5, FOUNTAIN),
        ("thinking while walking", 10, None),
    ),
    leisure=True,
)

COFFEE = Activity(
    "coffee",
    ("coffee", "tea\\b", "cup of tea"),
    first=(("ordering a coffee at the counter", 5, CAFE_COUNTER),),
    middle=(
        ("sipping a coffee", 10, CAFE_SEAT),
        ("chatting with someone at the cafe", 10, CAFE_SEAT),
        ("reading at a cafe table", 15, CAFE_SEAT),
        ("watching people come and go", 5, CAFE_SEAT),
    ),
    leisure=True,
)

SOCIALISING = Activity(
    "socialising",
    (
        "chat",
        "talk",
        "hanging out",
        "housemates",
        "friends",
        "neighbours",
        "dorm mates",
        "visiting",
        "catching up",
    ),
    middle=(
        ("chatting about the day", 15, SOFA),
        ("telling a funny story", 10, SOFA),
        ("listening to a friend", 10, SOFA),
        ("laughing together", 5, SOFA),
        ("sharing some snacks", 10, LIVING_ROOM),
    ),
    leisure=True,
)

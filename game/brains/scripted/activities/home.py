"""Activities of home life: sleep, the morning, meals at home, chores, an evening in."""

from __future__ import annotations

from game.world.roles import Role

from ..spots import (
    BATHROOM,
    BATHROOM_SINK,
    BED,
    CLOSET,
    FRIDGE,
    KITCHEN_SINK,
    OWN_ROOM,
    SHOWER,
    SOFA,
    STOVE,
    TABLE,
    TELEVISION,
    WASHER,
)
from .kind import Activity

SLEEPING = Activity(
    "sleeping",
    ("sleep", "nap\\b", "taking a nap", "asleep"),
    middle=(("sleeping", 60, BED),),
)

BEDTIME = Activity(
    "bedtime",
    ("getting ready for bed", "bedtime", "winding down for the night"),
    middle=(
        ("brushing teeth", 5, BATHROOM_SINK),
        ("washing up", 5, BATHROOM),
        ("changing into pyjamas", 5, BED),
        ("reading in bed", 15, BED),
        ("setting the alarm", 5, BED),
    ),
    at_home=True,
)

MORNING = Activity(
    "morning",
    ("morning routine", "getting ready for the day", "waking up"),
    first=(
        ("waking up and stretching", 5, BED),
        ("brushing teeth", 5, BATHROOM_SINK),
        ("taking a shower", 10, SHOWER),
        ("getting dressed", 5, CLOSET),
    ),
    middle=(
        ("making the bed", 5, BED),
        ("checking messages on the phone", 5, OWN_ROOM),
        ("making a cup of tea", 5, STOVE),
        ("tidying up the room", 10, OWN_ROOM),
        ("looking out of the window", 5, OWN_ROOM),
        ("doing some stretches", 10, OWN_ROOM),
    ),
    last=(("going over the plans for the day", 5, OWN_ROOM),),
    hours=(
        "waking up and washing",
        "getting ready for the day",
        "finishing the morning routine",
    ),
)

BREAKFAST = Activity(
    "breakfast",
    ("(?<!before )breakfast", "brunch"),
    first=(("making {meal}", 10, STOVE),),
    middle=(
        ("eating {meal}", 15, TABLE),
        ("drinking a cup of coffee", 5, TABLE),
        ("reading the news over {meal}", 10, TABLE),
        ("chatting over {meal}", 10, TABLE),
    ),
    last=(("washing the dishes", 5, KITCHEN_SINK),),
    hours=("making breakfast", "eating breakfast", "finishing breakfast and clearing up"),
    at_home=True,
    meal=True,
)

COOKING = Activity(
    "cooking",
    ("cook", "making dinner", "making lunch", "preparing dinner", "bak"),
    first=(
        ("taking ingredients out of the fridge", 5, FRIDGE),
        ("chopping vegetables", 10, STOVE),
    ),
    middle=(
        ("cooking at the stove", 15, STOVE),
        ("stirring the pot", 5, STOVE),
        ("tasting and seasoning", 5, STOVE),
        ("checking the oven", 5, STOVE),
    ),
    last=(("plating the food", 5, STOVE), ("washing up", 10, KITCHEN_SINK)),
    hours=(
        "getting the ingredients ready for cooking",
        "cooking at the stove",
        "finishing the cooking and washing up",
    ),
    at_home=True,
    meal=True,
)

EATING = Activity(
    "eating",
    ("lunch", "dinner", "eat", "meal", "snack", "supper"),
    first=(("heating up {meal}", 10, STOVE), ("setting the table", 5, TABLE)),
    middle=(
        ("eating {meal}", 15, TABLE),
        ("chatting over {meal}", 10, TABLE),
        ("having a second helping", 5, TABLE),
    ),
    last=(("clearing the table", 5, TABLE), ("washing the dishes", 10, KITCHEN_SINK)),
    hours=("sitting down for {meal}", "eating {meal}", "finishing {meal} and clearing up"),
    meal=True,
)

TELEVISION = Activity(
    "television",
    ("television", "tv\\b", "movie", "film", r"watch\w* (?:the |a )?(?:late )?news"),
    first=(("switching on the television", 5, TELEVISION),),
    middle=(
        ("watching the news", 15, SOFA),  # from the sofa, where there is one
        ("flipping through channels", 5, SOFA),
        ("watching a show", 15, SOFA),
        ("making a snack", 5, FRIDGE),
    ),
    leisure=True,
    needs=(Role.TELEVISION,),
    otherwise="relaxing",
)

GARDENING = Activity(
    "gardening",
    ("garden", "plants", "weed", "vegetable"),
    middle=(
        ("watering the plants", 10, None),
        ("pulling weeds", 15, None),
        ("planting seeds", 10, None),
        ("checking on the vegetables", 5, None),
        ("pruning the bushes", 10, None),
    ),
)

LAUNDRY = Activity(
    "laundry",
    ("laundry", r"washing (?:the )?clothes"),
    middle=(
        ("doing the laundry", 15, WASHER),
        ("hanging out the washing", 10, None),
        ("folding the clean clothes", 10, None),
    ),
    needs=(Role.WASHER, Role.LAUNDRY_ROOM),
    otherwise="cleaning",
)

CLEANING = Activity(
    "cleaning",
    ("clean", "tidy", "dishes", "vacuum", "chores"),
    middle=(
        ("sweeping the floor", 10, None),
        ("dusting the shelves", 10, None),
        ("making the beds", 10, BED),
        ("wiping the table", 5, TABLE),
        ("taking out the rubbish", 5, None),
        ("putting things away", 10, None),
    ),
    words="tidying up",
)

RELAXING = Activity(
    "relaxing",
    ("relax", "rest", "winding down", "unwind", "sofa", "break", "free time", "lounging"),
    middle=(
        ("sitting on the sofa", 10, SOFA),
        ("listening to music", 10, SOFA),
        ("scrolling through the phone", 5, SOFA),
        ("making a cup of tea", 5, STOVE),
        ("flipping through a magazine", 10, SOFA),
    ),
    leisure=True,
    needs=(Role.SOFA,),
    otherwise="reading",
    words="relaxing",
)

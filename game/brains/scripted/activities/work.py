"""Activities of work and study for a living: the town's jobs, classes and the campaign.

`work` fixes them in the day with little idle chatting; `service` marks work that is
talking to people (the cafe, the bar, the shop counter).
"""

from __future__ import annotations

from game.world.roles import Role

from ..spots import (
    BAR_COUNTER,
    BAR_SEAT,
    BLACKBOARD,
    CAFE_COUNTER,
    CAFE_SEAT,
    COFFEE_MACHINE,
    DESK,
    LECTERN,
    LECTURE_DESKS,
    MEDICINE_SHELVES,
    PHARMACY_COUNTER,
    STORE,
    STOVE,
)
from .kind import Activity

CAMPAIGN = Activity(
    "campaign",
    ("campaign", "canvass", "mayor", "election", "voters", "flyers"),
    middle=(
        ("handing out campaign flyers", 10, None),
        ("talking with voters about the town", 15, None),
        ("listening to a neighbour's concerns", 10, None),
        ("jotting down ideas for the campaign", 10, None),
        ("shaking hands with passers-by", 5, None),
    ),
    hours=(
        "starting a round of campaigning",
        "talking with voters about the election",
        "wrapping up the day's campaigning",
    ),
)

PHARMACY = Activity(
    "pharmacy",
    ("pharmacy", "prescription", "medicine"),
    first=(
        ("unlocking the pharmacy counter", 5, PHARMACY_COUNTER),
        ("checking the day's prescriptions", 10, PHARMACY_COUNTER),
    ),
    middle=(
        ("filling a prescription", 15, PHARMACY_COUNTER),
        ("advising a customer about medicine", 10, PHARMACY_COUNTER),
        ("restocking the medicine shelves", 10, MEDICINE_SHELVES),
        ("ringing up a customer", 5, PHARMACY_COUNTER),
        ("checking the stock list", 10, PHARMACY_COUNTER),
    ),
    last=(("locking up the medicine cabinet", 5, PHARMACY_COUNTER),),
    hours=(
        "opening the pharmacy counter",
        "serving customers at the pharmacy",
        "restocking the pharmacy shelves",
        "closing the pharmacy counter",
    ),
    work=True,
    service=True,
)

ADMIN = Activity(
    "admin",
    ("accounts", "ordering", "paperwork", "bills", "emails", "planning", "budget"),
    middle=(
        ("going through the accounts", 15, None),
        ("placing an order with a supplier", 10, None),
        ("answering emails", 10, None),
        ("making a to-do list", 5, None),
        ("writing down ideas", 10, None),
        ("paying bills", 10, None),
    ),
)

BAR_WORK = Activity(
    "bar_work",
    ("tending (?:the )?bar", "bartend", "behind the bar", "serving drinks", "pouring"),
    first=(
        ("wiping down the bar counter", 5, BAR_COUNTER),
        ("checking the beer taps", 5, BAR_COUNTER),
    ),
    middle=(
        ("pouring pints for regulars", 10, BAR_COUNTER),
        ("chatting with the regulars", 15, BAR_COUNTER),
        ("mixing a cocktail", 5, BAR_COUNTER),
        ("collecting empty glasses", 5, BAR_SEAT),
        ("washing glasses", 10, BAR_COUNTER),
        ("taking a food order", 5, BAR_COUNTER),
    ),
    last=(
        ("calling last orders", 5, BAR_COUNTER),
        ("cleaning up the bar", 10, BAR_COUNTER),
    ),
    hours=(
        "opening up behind the bar for the evening",
        "serving drinks behind the bar",
        "chatting with regulars behind the bar",
        "closing up behind the bar",
    ),
    work=True,
    service=True,
)

SHOP_WORK = Activity(
    "shop_work",
    ("grocer", "market", "store\\b", "running the (?:shop|store)", "cashier", "stocking"),
    first=(
        ("unlocking the shop and turning on the lights", 5, STORE),
        ("counting the till", 5, STORE),
    ),
    middle=(
        ("helping a customer find something", 10, STORE),
        ("restocking the shelves", 15, STORE),
        ("ringing up a sale", 5, STORE),
        ("tidying the displays", 10, STORE),
        ("checking deliveries", 10, STORE),
        ("chatting with a regular customer", 5, STORE),
    ),
    last=(("counting the day's takings", 10, STORE), ("locking up the shop", 5, STORE)),
    hours=(
        "opening the store for the day",
        "serving customers in the store",
        "restocking the store shelves",
        "closing the store for the day",
    ),
    work=True,
    service=True,
)

PROGRAMMING = Activity(
    "programming",
    ("code", "coding", "app\\b", "bugs?\\b", "programm", "software", "debug"),
    middle=(
        ("writing code for a new feature", 15, None),
        ("fixing a bug", 15, None),
        ("running the tests", 5, None),
        ("reading documentation", 10, None),
        ("sketching the app's design", 10, None),
        ("refactoring old code", 10, None),
        ("getting a coffee refill", 5, None),
    ),
    work=True,
)

CAFE_WORK = Activity(
    "cafe_work",
    ("running the cafe", "cafe", "barista", "espresso", "serving customers", "serving"),
    first=(
        ("opening the cafe and turning on the coffee machine", 10, COFFEE_MACHINE),
        ("setting out the pastries", 5, CAFE_COUNTER),
    ),
    middle=(
        ("making espresso for a customer", 5, COFFEE_MACHINE),
        ("serving pastries", 5, CAFE_COUNTER),
        ("taking orders at the counter", 10, CAFE_COUNTER),
        ("wiping down the counter", 5, CAFE_COUNTER),
        ("chatting with customers", 10, CAFE_SEAT),
        ("baking a fresh batch of muffins", 15, STOVE),
        ("clearing the tables", 5, CAFE_SEAT),
        ("brewing a fresh pot of coffee", 5, COFFEE_MACHINE),
    ),
    last=(
        ("cleaning the coffee machine", 10, COFFEE_MACHINE),
        ("closing up the cafe", 5, CAFE_COUNTER),
    ),
    hours=(
        "opening up the cafe",
        "serving the cafe's customers",
        "making coffee for the cafe's customers",
        "tidying the cafe between customers",
        "closing the cafe for the day",
    ),
    work=True,
    service=True,
)

LECTURE_PREP = Activity(
    "lecture_prep",
    ("preparing lectures", "lecture notes", r"prepar\w* .{0,20}(?:lecture|lesson|class)"),
    first=(("getting out the notes for the next lecture", 5, DESK),),
    middle=(
        ("preparing tomorrow's lecture notes", 15, DESK),
        ("reading up for the next lecture", 15, DESK),
        ("marking students' essays", 15, DESK),
        ("writing questions for the class discussion", 10, DESK),
        ("going over the lecture slides", 10, DESK),
    ),
    last=(("putting the lecture notes in order", 5, DESK),),
    hours=(
        "getting out the notes for the next lecture",
        "preparing tomorrow's lecture notes",
        "putting the lecture notes in order",
    ),
    work=True,
    words="preparing tomorrow's lecture notes",
)

TEACHING = Activity(
    "teaching",
    ("teach", "lectur", "grading", "workshop", "office hours"),
    first=(("setting up notes at the lectern", 5, LECTERN),),
    middle=(
        ("explaining a new idea to the class", 15, BLACKBOARD),
        ("writing on the blackboard", 10, BLACKBOARD),
        ("answering students' questions", 10, LECTERN),
        ("leading a class discussion", 15, LECTERN),
        ("grading papers", 15, None),
        ("reading a student's work", 10, None),
        ("setting homework for next time", 5, LECTERN),
    ),
    work=True,
    needs=(Role.CLASSROOM,),
    otherwise="lecture_prep",
)

CLASS = Activity(
    "class",
    ("class", "attending", "seminar", "tutorial"),
    first=(("finding a seat in the classroom", 5, LECTURE_DESKS),),
    middle=(
        ("listening to the lecture", 15, LECTURE_DESKS),
        ("taking notes in class", 10, LECTURE_DESKS),
        ("asking the teacher a question", 5, LECTURE_DESKS),
        ("working on an exercise in class", 15, LECTURE_DESKS),
        ("discussing with classmates", 10, LECTURE_DESKS),
    ),
    work=True,
    needs=(Role.CLASSROOM,),
    otherwise="studying",
)

LAW = Activity(
    "law",
    ("tax", "legal", "client", "filings?\\b", "cases?\\b", "contract"),
    middle=(
        ("reviewing a client's tax return", 15, None),
        ("answering client emails", 10, None),
        ("filing paperwork", 10, None),
        ("checking the tax code", 10, None),
        ("drafting a letter to a client", 15, None),
        ("calling a client", 5, None),
    ),
    work=True,
)

"""What kind of activity a plan item is, and how such an activity breaks into actions.

One table, read top to bottom: the first activity whose keys match the description wins,
so specific activities (a party, breakfast) come before broad ones (work at the cafe).
Each activity carries its own decomposition: `hours` are hour-level phrases (opening,
middles..., closing) and `first`/`middle`/`last` are 5-15 minute actions. A step is
(text, nominal minutes, spot); a spot (spots.py: a shower in a bathroom, by role) refines
where it happens.
`{meal}` and `{what}` in a step are filled from the item's description.

What a place must offer is data too: `needs` lists the rooms or things an activity needs
(any one: lectures a classroom, television a television set), and where the place offers
none the activity becomes its `otherwise` ('preparing tomorrow's lecture notes' at a desk
at home, 'relaxing' without a television). A step's spot is what the step needs in a room
the place has (spots.affords), so no step is placed at a thing that cannot host it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from game.world.roles import Role
from game.world.troubles import fix_of

from .spots import (
    BAR_COUNTER,
    BAR_SEAT,
    BATHROOM,
    BATHROOM_SINK,
    BED,
    BLACKBOARD,
    CAFE_COUNTER,
    CAFE_FLOOR,
    CAFE_SEAT,
    CLOSET,
    COFFEE_MACHINE,
    DESK,
    FOUNTAIN,
    FRIDGE,
    JUKEBOX,
    KITCHEN_SINK,
    LECTERN,
    LECTURE_DESKS,
    LIVING_ROOM,
    MEDICINE_SHELVES,
    OWN_ROOM,
    PARK_BENCH,
    PARK_GARDEN,
    PHARMACY_COUNTER,
    POND,
    POOL_TABLE,
    SHOWER,
    SOFA,
    STORE,
    STOVE,
    TABLE,
    TELEVISION,
    WASHER,
    Offers,
    Pref,
    Spot,
    affords,
    offered,
)
from .util import has_any

Step = tuple[str, int, Spot | None]


@dataclass(frozen=True)
class Activity:
    key: str
    keys: tuple[str, ...]
    first: tuple[Step, ...] = ()
    middle: tuple[Step, ...] = ()
    last: tuple[Step, ...] = ()
    hours: tuple[str, ...] = ()  # (opening, *middles, closing) hour phrases
    at_home: bool | None = None  # True: only at home; False: only away; None: anywhere
    work: bool = False  # a job or class: fixed in the day, little idle chatting
    service: bool = False  # work that is talking to people (cafe, bar, shop counter)
    leisure: bool = False  # free time the planner may vary from day to day
    meal: bool = False
    needs: tuple[Pref, ...] = ()  # what the place must offer, any one (roles or kinds)
    otherwise: str = ""  # the key of the activity it becomes where none is offered
    words: str = ""  # how it is said when it stands in for another activity

    def steps(self) -> tuple[Step, ...]:
        return (*self.first, *self.middle, *self.last)


# Dealing with a trouble: what is a fix is the troubles table's to say (game.world.troubles).
FIXING = Activity("fixing", (), middle=(("{what}", 5, None),))

ACTIVITIES: tuple[Activity, ...] = (
    FIXING,
    Activity(
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
            ("baking treats for the party", 15, None),
        ),
        last=(("checking that everything is ready for the party", 5, None),),
        hours=(
            "clearing space and hanging up decorations for the party",
            "decorating for the party",
            "checking the party decorations are ready",
        ),
    ),
    Activity(
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
            ("listening to the speakers", 10, None),
            ("getting a drink", 5, None),
        ),
        last=(("saying goodbye and heading out", 5, None),),
        hours=("arriving at the event", "enjoying the event", "leaving the event"),
    ),
    Activity(
        "party",
        ("party", "celebration", "festivities", "hosting"),
        # guests at the tables, the counter, the floor (in a cafe; elsewhere the place)
        first=(("arriving and greeting everyone", 10, CAFE_FLOOR),),
        middle=(
            ("chatting with the guests", 15, CAFE_SEAT),
            ("getting a drink and a snack", 5, CAFE_COUNTER),
            ("dancing to the music", 10, CAFE_FLOOR),
            ("laughing with friends", 10, CAFE_SEAT),
            ("meeting new people at the party", 10, CAFE_FLOOR),
            ("toasting with the others", 5, CAFE_COUNTER),
            ("listening to the music", 10, CAFE_SEAT),
            ("trying the party food", 10, CAFE_COUNTER),
        ),
        last=(("saying goodbye to everyone", 5, CAFE_FLOOR),),
        hours=(
            "arriving at the party and greeting everyone",
            "enjoying the party",
            "saying goodbye at the end of the party",
        ),
    ),
    Activity(
        "sleeping",
        ("sleep", "nap\\b", "taking a nap", "asleep"),
        middle=(("sleeping", 60, BED),),
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
        "performing",
        (
            "rehears",
            "improv",
            "joke",
            "monologue",
            "comedy",
            "verses",
            "perform",
            "routines",
            "stage",
            "acting",
        ),
        middle=(
            ("running through lines", 10, None),
            ("practising a new bit", 10, None),
            ("trying out jokes", 10, None),
            ("working on timing", 10, None),
            ("getting feedback from the audience", 10, None),
            ("improvising a scene", 15, None),
        ),
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
        "music",
        ("compos", "music", "keyboard", "piano", "scales", "song", "melod"),
        middle=(
            ("playing scales on the keyboard", 10, None),
            ("trying out a new melody", 10, None),
            ("writing notes on the score", 10, None),
            ("listening back to a recording", 5, None),
            ("working out the harmony", 15, None),
            ("humming a tune", 5, None),
        ),
    ),
    Activity(
        "streaming",
        ("stream",),
        first=(("setting up the stream", 10, None),),
        middle=(
            ("playing a game live on stream", 15, None),
            ("chatting with viewers", 10, None),
            ("reading comments from the audience", 5, None),
            ("taking a short break from the stream", 5, None),
        ),
        last=(("saying goodnight to viewers and ending the stream", 5, None),),
        hours=(
            "setting up the stream and going live",
            "streaming a game live",
            "chatting with viewers on stream",
            "ending the stream for the night",
        ),
    ),
    Activity(
        "photo_editing",
        ("editing photos", "photo editing", "photo project", "edit\\w* (?:the |her |his )?photo"),
        middle=(
            ("editing a photo", 15, None),
            ("sorting through the day's shots", 10, None),
            ("adjusting the colours of a picture", 10, None),
            ("choosing the best shots", 10, None),
            ("printing a test photo", 5, None),
        ),
    ),
    Activity(
        "photography",
        ("photo", "camera", "headshot"),
        middle=(
            ("taking photos", 10, None),
            ("adjusting the camera settings", 5, None),
            ("framing a shot", 5, None),
            ("looking for the right light", 10, None),
            ("checking the pictures on the camera", 5, None),
        ),
    ),
    Activity(
        "digital_art",
        ("animat", "drawing tablet", "digital", "frames", "storyboard", "drawing"),
        middle=(
            ("sketching a character", 15, None),
            ("animating a scene frame by frame", 15, None),
            ("colouring a drawing", 10, None),
            ("watching the animation back", 5, None),
            ("trying out a new brush", 10, None),
        ),
    ),
    Activity(
        "painting",
        ("paint", "watercolo", "sketch", "easel", "canvas"),
        first=(("setting up the paints", 5, None),),
        middle=(
            ("painting", 15, None),
            ("mixing colours", 10, None),
            ("stepping back to look at the painting", 5, None),
            ("sketching an outline", 10, None),
            ("adding details to the painting", 15, None),
            ("cleaning the brushes", 5, None),
        ),
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
        "writing",
        (
            "writ",
            "novel",
            "poem",
            "manuscript",
            "chapter",
            "outlin",
            "podcast",
            "stor(?:y|ies)",
            "revis",
            "draft",
        ),
        middle=(
            ("writing a new paragraph", 15, None),
            ("rereading what was written", 10, None),
            ("crossing out a line and starting again", 5, None),
            ("looking for the right word", 5, None),
            ("jotting down ideas", 10, None),
            ("writing", 15, None),
        ),
    ),
    Activity(
        "studying",
        (
            "stud",
            "research",
            "homework",
            "thesis",
            "proof",
            "equation",
            "sociology",
            "physics",
            "chemistry",
            "mathemat",
            "learning",
            "notes",
            "papers?\\b",
        ),
        first=(("getting out the notes", 5, None),),
        middle=(
            ("reading a chapter", 15, None),
            ("taking notes", 10, None),
            ("working through a problem", 15, None),
            ("looking up a reference", 10, None),
            ("reviewing notes", 10, None),
            ("summarising what was learned", 10, None),
        ),
        words="going over some notes",
    ),
    Activity(
        "reading",
        ("read", "books?\\b", "library"),
        middle=(
            ("reading a chapter", 15, None),
            ("making a cup of tea", 5, None),
            ("underlining a favourite passage", 5, None),
            ("reading", 15, None),
            ("thinking over what was read", 5, None),
        ),
        leisure=True,
        words="reading a book",
    ),
    Activity(
        "gardening",
        ("garden", "plants", "weed", "vegetable"),
        middle=(
            ("watering the plants", 10, None),
            ("pulling weeds", 15, None),
            ("planting seeds", 10, None),
            ("checking on the vegetables", 5, None),
            ("pruning the bushes", 10, None),
        ),
    ),
    Activity(
        "laundry",
        ("laundry", r"washing (?:the )?clothes"),
        middle=(
            ("doing the laundry", 15, WASHER),
            ("hanging out the washing", 10, None),
            ("folding the clean clothes", 10, None),
        ),
        needs=(Role.WASHER, Role.LAUNDRY_ROOM),
        otherwise="cleaning",
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
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
    ),
    Activity(
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
    ),
)
BY_KEY: dict[str, Activity] = {a.key: a for a in ACTIVITIES}

GENERIC = Activity(
    "generic",
    (),
    middle=(("{what}", 15, None), ("{what}", 10, None), ("taking a short break", 5, None)),
)


def fits(activity: Activity, offers: Offers | None) -> bool:
    """Whether a place offers something the activity needs (unknown offers: it does)."""
    return not activity.needs or any(offered(n, offers) for n in activity.needs)


def fitting(activity: Activity, offers: Offers | None) -> Activity:
    """The activity, or what it becomes where the place lacks what it needs: television
    without a television is relaxing, relaxing without a seat is reading."""
    seen = {activity.key}
    while not fits(activity, offers) and activity.otherwise not in ("", *seen):
        activity = BY_KEY[activity.otherwise]
        seen.add(activity.key)
    return activity if fits(activity, offers) else GENERIC


def usable(steps: tuple[Step, ...], offers: Offers | None) -> tuple[Step, ...]:
    """The steps the place can host (spots.affords)."""
    return tuple(s for s in steps if affords(s[2], offers))


def steps_named(text: str) -> list[tuple[Activity, Spot | None]]:
    """Every activity whose table has a step of these words, with the step's spot: what
    an action needs, for checking where it was placed (tools/plan_audit.py)."""
    return list(STEPS_BY_TEXT.get(text, ()))


def _steps_by_text() -> dict[str, tuple[tuple[Activity, Spot | None], ...]]:
    out: dict[str, list[tuple[Activity, Spot | None]]] = {}
    for activity in ACTIVITIES:
        for text, _, spot in activity.steps():
            if "{" not in text:
                out.setdefault(text, []).append((activity, spot))
    return {k: tuple(v) for k, v in out.items()}


def classify(description: str, at_home: bool | None = None) -> Activity:
    """The first activity in the table whose keys match (and whose home rule fits).

    A place's name says where, not what: 'reading at Hobbs Cafe' is reading, not cafe
    work, so the words without proper place names are tried first; the full words only
    when those name no activity ('working at Hobbs Cafe'). What one reads about is a
    topic too: 'reading about cooking' is reading, not cooking at a stove."""
    bare = READ_TOPIC.sub(r"\1", PLACE_NAME.sub("", description))
    found = _first_match(bare, at_home) if bare != description else GENERIC
    return found if found is not GENERIC else _first_match(description, at_home)


READ_TOPIC = re.compile(r"\b(read\w*|learn\w*) (?:up )?(?:about|on) .*?(?=\s(?:at|in) |$)")
# ' at Hobbs Cafe', ' to The Rose and Crown Pub': a preposition and capitalised words
PLACE_NAME = re.compile(
    r"\s(?:at|in|to|from|near|by|outside|inside) (?:the |The )?"
    r"[A-Z][\w']*(?:(?: and| of)? [A-Z][\w']*)*"
)


def _first_match(description: str, at_home: bool | None) -> Activity:
    if fix_of(description) is not None:  # a fix, by the troubles table
        return FIXING
    for activity in ACTIVITIES:
        if activity.at_home is False and at_home is not False:
            continue  # 'ordering lunch' needs to know it happens away from home
        if activity.at_home is True and at_home is False:
            continue
        if has_any(description, activity.keys):
            return activity
    return GENERIC


STEPS_BY_TEXT = _steps_by_text()

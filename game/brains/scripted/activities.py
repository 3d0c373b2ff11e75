"""What kind of activity a plan item is, and how such an activity breaks into actions.

One table, read top to bottom: the first activity whose keys match the description wins,
so specific activities (a party, breakfast) come before broad ones (work at the cafe).
Each activity carries its own decomposition: `hours` are hour-level phrases (opening,
middles..., closing) and `first`/`middle`/`last` are 5-15 minute actions. A step is
(text, nominal minutes, spot); a spot like 'bathroom:shower' refines where it happens.
`{meal}` and `{what}` in a step are filled from the item's description.
"""

from __future__ import annotations

from dataclasses import dataclass

from .util import has_any

Step = tuple[str, int, str]
TABLE = "common room:dining table"  # a meal at home: at the table if the home has one
SEAT = "cafe:cafe customer seating"  # a meal out: a seat (in the cafe; elsewhere the rules pick)


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


ACTIVITIES: tuple[Activity, ...] = (
    Activity(
        "fixing",
        (
            "turning off the",
            "putting out the",
            "fixing the",
            "repairing the",
            "mopping up",
            "unjamming",
            "stopping the overflowing",
        ),
        middle=(("{what}", 5, ""),),
    ),
    Activity(
        "party_prep",
        (
            "decorat",
            r"prepar\w* .{0,30}(?:party|celebration)",
            r"bak\w* .{0,30}(?:party|celebration)",
            "setting up for",
        ),
        first=(("clearing space for the guests", 10, ""), ("hanging up decorations", 15, "")),
        middle=(
            ("putting flowers on the tables", 10, ""),
            ("setting out snacks and drinks", 10, ""),
            ("hanging up streamers", 10, ""),
            ("arranging the chairs", 10, ""),
            ("writing a welcome sign", 10, ""),
            ("baking treats for the party", 15, ""),
        ),
        last=(("checking that everything is ready for the party", 5, ""),),
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
        first=(("arriving and saying hello", 5, ""),),
        middle=(
            ("looking around", 10, ""),
            ("chatting with the other guests", 15, ""),
            ("listening to the speakers", 10, ""),
            ("getting a drink", 5, ""),
        ),
        last=(("saying goodbye and heading out", 5, ""),),
        hours=("arriving at the event", "enjoying the event", "leaving the event"),
    ),
    Activity(
        "party",
        ("party", "celebration", "festivities", "hosting"),
        first=(("arriving and greeting everyone", 10, ""),),
        middle=(
            ("chatting with the guests", 15, ""),
            ("getting a drink and a snack", 5, ""),
            ("dancing to the music", 10, ""),
            ("laughing with friends", 10, ""),
            ("meeting new people at the party", 10, ""),
            ("toasting with the others", 5, ""),
        ),
        last=(("saying goodbye to everyone", 5, ""),),
        hours=(
            "arriving at the party and greeting everyone",
            "enjoying the party",
            "saying goodbye at the end of the party",
        ),
    ),
    Activity(
        "sleeping",
        ("sleep", "nap\\b", "taking a nap", "asleep"),
        middle=(("sleeping", 60, "own:bed"),),
    ),
    Activity(
        "bedtime",
        ("getting ready for bed", "bedtime", "winding down for the night"),
        middle=(
            ("brushing teeth", 5, "bathroom:bathroom sink"),
            ("washing up", 5, "bathroom"),
            ("changing into pyjamas", 5, "own:bed"),
            ("reading in bed", 15, "own:bed"),
            ("setting the alarm", 5, "own:bed"),
        ),
        at_home=True,
    ),
    Activity(
        "morning",
        ("morning routine", "getting ready for the day", "waking up"),
        first=(
            ("waking up and stretching", 5, "own:bed"),
            ("brushing teeth", 5, "bathroom:bathroom sink"),
            ("taking a shower", 10, "bathroom:shower"),
            ("getting dressed", 5, "own:closet"),
        ),
        middle=(
            ("making the bed", 5, "own:bed"),
            ("checking messages on the phone", 5, "own"),
            ("making a cup of tea", 5, "kitchen:stove"),
            ("tidying up the room", 10, "own"),
            ("looking out of the window", 5, "own"),
            ("doing some stretches", 10, "own"),
        ),
        last=(("going over the plans for the day", 5, "own"),),
        hours=(
            "waking up and washing",
            "getting ready for the day",
            "finishing the morning routine",
        ),
    ),
    Activity(
        "breakfast",
        ("(?<!before )breakfast", "brunch"),
        first=(("making {meal}", 10, "kitchen:stove"),),
        middle=(
            ("eating {meal}", 15, TABLE),
            ("drinking a cup of coffee", 5, TABLE),
            ("reading the news over {meal}", 10, TABLE),
            ("chatting over {meal}", 10, TABLE),
        ),
        last=(("washing the dishes", 5, "kitchen:kitchen sink"),),
        hours=("making breakfast", "eating breakfast", "finishing breakfast and clearing up"),
        at_home=True,
        meal=True,
    ),
    Activity(
        "cooking",
        ("cook", "making dinner", "making lunch", "preparing dinner", "bak"),
        first=(
            ("taking ingredients out of the fridge", 5, "kitchen:refrigerator"),
            ("chopping vegetables", 10, "kitchen:stove"),
        ),
        middle=(
            ("cooking at the stove", 15, "kitchen:stove"),
            ("stirring the pot", 5, "kitchen:stove"),
            ("tasting and seasoning", 5, "kitchen:stove"),
            ("checking the oven", 5, "kitchen:stove"),
        ),
        last=(("plating the food", 5, "kitchen:stove"), ("washing up", 10, "kitchen:kitchen sink")),
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
        first=(("ordering {meal}", 5, "cafe:cafe counter"),),
        middle=(
            ("eating {meal}", 15, SEAT),
            ("chatting with the people at the next table", 10, SEAT),
            ("watching people go by", 5, SEAT),
            ("enjoying {meal}", 10, SEAT),
        ),
        last=(("paying the bill", 5, "cafe:cafe counter"),),
        hours=("ordering {meal}", "eating {meal}", "finishing {meal} and paying"),
        at_home=False,
        meal=True,
    ),
    Activity(
        "eating",
        ("lunch", "dinner", "eat", "meal", "snack", "supper"),
        first=(("heating up {meal}", 10, "kitchen:stove"), ("setting the table", 5, TABLE)),
        middle=(
            ("eating {meal}", 15, TABLE),
            ("chatting over {meal}", 10, TABLE),
            ("having a second helping", 5, TABLE),
        ),
        last=(("clearing the table", 5, TABLE), ("washing the dishes", 10, "kitchen:kitchen sink")),
        hours=("sitting down for {meal}", "eating {meal}", "finishing {meal} and clearing up"),
        meal=True,
    ),
    Activity(
        "campaign",
        ("campaign", "canvass", "mayor", "election", "voters", "flyers"),
        middle=(
            ("handing out campaign flyers", 10, ""),
            ("talking with voters about the town", 15, ""),
            ("listening to a neighbour's concerns", 10, ""),
            ("jotting down ideas for the campaign", 10, ""),
            ("shaking hands with passers-by", 5, ""),
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
            ("unlocking the pharmacy counter", 5, "store:pharmacy counter"),
            ("checking the day's prescriptions", 10, "store:pharmacy counter"),
        ),
        middle=(
            ("filling a prescription", 15, "store:pharmacy counter"),
            ("advising a customer about medicine", 10, "store:pharmacy counter"),
            ("restocking the medicine shelves", 10, "store:medicine shelves"),
            ("ringing up a customer", 5, "store:pharmacy counter"),
            ("checking the stock list", 10, "store:pharmacy counter"),
        ),
        last=(("locking up the medicine cabinet", 5, "store:pharmacy counter"),),
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
            ("looking along the shelves", 10, ""),
            ("picking out what is needed", 10, ""),
            ("comparing prices", 5, ""),
            ("asking the shopkeeper a question", 5, ""),
        ),
        last=(("paying at the counter", 5, ""),),
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
            ("going through the accounts", 15, ""),
            ("placing an order with a supplier", 10, ""),
            ("answering emails", 10, ""),
            ("making a to-do list", 5, ""),
            ("writing down ideas", 10, ""),
            ("paying bills", 10, ""),
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
            ("running through lines", 10, ""),
            ("practising a new bit", 10, ""),
            ("trying out jokes", 10, ""),
            ("working on timing", 10, ""),
            ("getting feedback from the audience", 10, ""),
            ("improvising a scene", 15, ""),
        ),
    ),
    Activity(
        "bar_work",
        ("tending (?:the )?bar", "bartend", "behind the bar", "serving drinks", "pouring"),
        first=(
            ("wiping down the bar counter", 5, "pub:bar counter"),
            ("checking the beer taps", 5, "pub:bar counter"),
        ),
        middle=(
            ("pouring pints for regulars", 10, "pub:bar counter"),
            ("chatting with the regulars", 15, "pub:bar counter"),
            ("mixing a cocktail", 5, "pub:bar counter"),
            ("collecting empty glasses", 5, "pub:pub tables"),
            ("washing glasses", 10, "pub:bar counter"),
            ("taking a food order", 5, "pub:bar counter"),
        ),
        last=(
            ("calling last orders", 5, "pub:bar counter"),
            ("cleaning up the bar", 10, "pub:bar counter"),
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
        first=(("ordering a drink at the bar", 5, "pub:bar counter"),),
        middle=(
            ("sipping a drink", 10, "pub:pub tables"),
            ("chatting with friends at the pub", 15, "pub:pub tables"),
            ("playing a round of pool", 15, "pub:pool table"),
            ("picking a song on the jukebox", 5, "pub:jukebox"),
            ("watching the football on the pub TV", 10, "pub:pub tables"),
        ),
        last=(("settling the tab", 5, "pub:bar counter"),),
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
            ("unlocking the shop and turning on the lights", 5, "store"),
            ("counting the till", 5, "store"),
        ),
        middle=(
            ("helping a customer find something", 10, "store"),
            ("restocking the shelves", 15, "store"),
            ("ringing up a sale", 5, "store"),
            ("tidying the displays", 10, "store"),
            ("checking deliveries", 10, "store"),
            ("chatting with a regular customer", 5, "store"),
        ),
        last=(("counting the day's takings", 10, "store"), ("locking up the shop", 5, "store")),
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
            ("writing code for a new feature", 15, ""),
            ("fixing a bug", 15, ""),
            ("running the tests", 5, ""),
            ("reading documentation", 10, ""),
            ("sketching the app's design", 10, ""),
            ("refactoring old code", 10, ""),
            ("getting a coffee refill", 5, ""),
        ),
        work=True,
    ),
    Activity(
        "cafe_work",
        ("running the cafe", "cafe", "barista", "espresso", "serving customers", "serving"),
        first=(
            ("opening the cafe and turning on the coffee machine", 10, "cafe:coffee machine"),
            ("setting out the pastries", 5, "cafe:cafe counter"),
        ),
        middle=(
            ("making espresso for a customer", 5, "cafe:coffee machine"),
            ("serving pastries", 5, "cafe:cafe counter"),
            ("taking orders at the counter", 10, "cafe:cafe counter"),
            ("wiping down the counter", 5, "cafe:cafe counter"),
            ("chatting with customers", 10, "cafe:cafe customer seating"),
            ("baking a fresh batch of muffins", 15, "kitchen:stove"),
            ("clearing the tables", 5, "cafe:cafe customer seating"),
            ("brewing a fresh pot of coffee", 5, "cafe:coffee machine"),
        ),
        last=(
            ("cleaning the coffee machine", 10, "cafe:coffee machine"),
            ("closing up the cafe", 5, "cafe:cafe counter"),
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
        "teaching",
        ("teach", "lectur", "grading", "workshop", "office hours", "preparing lectures"),
        first=(("setting up notes at the lectern", 5, "classroom:lectern"),),
        middle=(
            ("explaining a new idea to the class", 15, "classroom:blackboard"),
            ("writing on the blackboard", 10, "classroom:blackboard"),
            ("answering students' questions", 10, "classroom:lectern"),
            ("leading a class discussion", 15, "classroom:lectern"),
            ("grading papers", 15, ""),
            ("reading a student's work", 10, ""),
            ("setting homework for next time", 5, "classroom:lectern"),
        ),
        work=True,
    ),
    Activity(
        "class",
        ("class", "attending", "seminar", "tutorial"),
        first=(("finding a seat in the classroom", 5, "classroom:lecture desks"),),
        middle=(
            ("listening to the lecture", 15, "classroom:lecture desks"),
            ("taking notes in class", 10, "classroom:lecture desks"),
            ("asking the teacher a question", 5, "classroom:lecture desks"),
            ("working on an exercise in class", 15, "classroom:lecture desks"),
            ("discussing with classmates", 10, "classroom:lecture desks"),
        ),
        work=True,
    ),
    Activity(
        "law",
        ("tax", "legal", "client", "filings?\\b", "cases?\\b", "contract"),
        middle=(
            ("reviewing a client's tax return", 15, ""),
            ("answering client emails", 10, ""),
            ("filing paperwork", 10, ""),
            ("checking the tax code", 10, ""),
            ("drafting a letter to a client", 15, ""),
            ("calling a client", 5, ""),
        ),
        work=True,
    ),
    Activity(
        "music",
        ("compos", "music", "keyboard", "piano", "scales", "song", "melod"),
        middle=(
            ("playing scales on the keyboard", 10, ""),
            ("trying out a new melody", 10, ""),
            ("writing notes on the score", 10, ""),
            ("listening back to a recording", 5, ""),
            ("working out the harmony", 15, ""),
            ("humming a tune", 5, ""),
        ),
    ),
    Activity(
        "streaming",
        ("stream",),
        first=(("setting up the stream", 10, ""),),
        middle=(
            ("playing a game live on stream", 15, ""),
            ("chatting with viewers", 10, ""),
            ("reading comments from the audience", 5, ""),
            ("taking a short break from the stream", 5, ""),
        ),
        last=(("saying goodnight to viewers and ending the stream", 5, ""),),
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
            ("editing a photo", 15, ""),
            ("sorting through the day's shots", 10, ""),
            ("adjusting the colours of a picture", 10, ""),
            ("choosing the best shots", 10, ""),
            ("printing a test photo", 5, ""),
        ),
    ),
    Activity(
        "photography",
        ("photo", "camera", "headshot"),
        middle=(
            ("taking photos", 10, ""),
            ("adjusting the camera settings", 5, ""),
            ("framing a shot", 5, ""),
            ("looking for the right light", 10, ""),
            ("checking the pictures on the camera", 5, ""),
        ),
    ),
    Activity(
        "digital_art",
        ("animat", "drawing tablet", "digital", "frames", "storyboard", "drawing"),
        middle=(
            ("sketching a character", 15, ""),
            ("animating a scene frame by frame", 15, ""),
            ("colouring a drawing", 10, ""),
            ("watching the animation back", 5, ""),
            ("trying out a new brush", 10, ""),
        ),
    ),
    Activity(
        "painting",
        ("paint", "watercolo", "sketch", "easel", "canvas"),
        first=(("setting up the paints", 5, ""),),
        middle=(
            ("painting", 15, ""),
            ("mixing colours", 10, ""),
            ("stepping back to look at the painting", 5, ""),
            ("sketching an outline", 10, ""),
            ("adding details to the painting", 15, ""),
            ("cleaning the brushes", 5, ""),
        ),
    ),
    Activity(
        "exercise",
        ("run\\b", "running", "jog", "train", "exercis", "workout", "yoga", "stretch"),
        first=(("warming up with stretches", 5, ""),),
        middle=(
            ("running", 15, ""),
            ("doing sprints", 10, ""),
            ("doing push-ups", 5, ""),
            ("running another lap", 10, ""),
            ("catching breath", 5, ""),
            ("cooling down with a slow jog", 5, ""),
        ),
    ),
    Activity(
        "walking",
        ("walk", "stroll"),
        middle=(
            ("walking along the path", 10, ""),
            ("stopping to look at the pond", 5, "park:pond"),
            ("sitting on a bench for a while", 10, "park:park bench"),
            ("watching the birds", 5, "park:park garden"),
            ("walking past the fountain", 5, "park:fountain"),
            ("thinking while walking", 10, ""),
        ),
        leisure=True,
    ),
    Activity(
        "television",
        ("television", "tv\\b", "movie", "film", "the news", "late news"),
        middle=(
            ("watching the news", 15, "common room:television"),
            ("flipping through channels", 5, "common room:sofa"),
            ("watching a show", 15, "common room:sofa"),
            ("making a snack", 5, "kitchen:refrigerator"),
        ),
        leisure=True,
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
            ("writing a new paragraph", 15, ""),
            ("rereading what was written", 10, ""),
            ("crossing out a line and starting again", 5, ""),
            ("looking for the right word", 5, ""),
            ("jotting down ideas", 10, ""),
            ("writing", 15, ""),
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
        first=(("getting out the notes", 5, ""),),
        middle=(
            ("reading a chapter", 15, ""),
            ("taking notes", 10, ""),
            ("working through a problem", 15, ""),
            ("looking up a reference", 10, ""),
            ("reviewing notes", 10, ""),
            ("summarising what was learned", 10, ""),
        ),
    ),
    Activity(
        "reading",
        ("read", "books?\\b", "library"),
        middle=(
            ("reading a chapter", 15, ""),
            ("making a cup of tea", 5, ""),
            ("underlining a favourite passage", 5, ""),
            ("reading", 15, ""),
            ("thinking over what was read", 5, ""),
        ),
        leisure=True,
    ),
    Activity(
        "gardening",
        ("garden", "plants", "weed", "vegetable"),
        middle=(
            ("watering the plants", 10, ""),
            ("pulling weeds", 15, ""),
            ("planting seeds", 10, ""),
            ("checking on the vegetables", 5, ""),
            ("pruning the bushes", 10, ""),
        ),
    ),
    Activity(
        "cleaning",
        ("clean", "tidy", "laundry", "dishes", "vacuum", "chores"),
        middle=(
            ("sweeping the floor", 10, ""),
            ("dusting the shelves", 10, ""),
            ("doing the laundry", 15, ""),
            ("wiping the table", 5, ""),
            ("taking out the rubbish", 5, ""),
            ("putting things away", 10, ""),
        ),
    ),
    Activity(
        "coffee",
        ("coffee", "tea\\b", "cup of tea"),
        first=(("ordering a coffee at the counter", 5, "cafe:cafe counter"),),
        middle=(
            ("sipping a coffee", 10, "cafe:cafe customer seating"),
            ("chatting with someone at the cafe", 10, "cafe:cafe customer seating"),
            ("reading at a cafe table", 15, "cafe:cafe customer seating"),
            ("watching people come and go", 5, "cafe:cafe customer seating"),
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
            ("chatting about the day", 15, "common room:sofa"),
            ("telling a funny story", 10, "common room:sofa"),
            ("listening to a friend", 10, "common room:sofa"),
            ("laughing together", 5, "common room:sofa"),
            ("sharing some snacks", 10, "common room"),
        ),
        leisure=True,
    ),
    Activity(
        "relaxing",
        ("relax", "rest", "winding down", "unwind", "sofa", "break", "free time", "lounging"),
        middle=(
            ("sitting on the sofa", 10, "common room:sofa"),
            ("listening to music", 10, "common room:sofa"),
            ("scrolling through the phone", 5, "common room:sofa"),
            ("making a cup of tea", 5, "kitchen:stove"),
            ("flipping through a magazine", 10, "common room:sofa"),
        ),
        leisure=True,
    ),
)

GENERIC = Activity(
    "generic",
    (),
    middle=(("{what}", 15, ""), ("{what}", 10, ""), ("taking a short break", 5, "")),
)


def classify(description: str, at_home: bool | None = None) -> Activity:
    """The first activity in the table whose keys match (and whose home rule fits)."""
    for activity in ACTIVITIES:
        if activity.at_home is False and at_home is not False:
            continue  # 'ordering lunch' needs to know it happens away from home
        if activity.at_home is True and at_home is False:
            continue
        if has_any(description, activity.keys):
            return activity
    return GENERIC


def by_key(key: str) -> Activity:
    for activity in ACTIVITIES:
        if activity.key == key:
            return activity
    return GENERIC

"""Activities of one's own pursuits: the arts, writing, streaming, studying and reading."""

from __future__ import annotations

from .kind import Activity

PERFORMING = Activity(
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
)

MUSIC = Activity(
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
)

STREAMING = Activity(
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
)

PHOTO_EDITING = Activity(
    "photo_editing",
    ("editing photos", "photo editing", "photo project", "edit\\w* (?:the |her |his )?photo"),
    middle=(
        ("editing a photo", 15, None),
        ("sorting through the day's shots", 10, None),
        ("adjusting the colours of a picture", 10, None),
        ("choosing the best shots", 10, None),
        ("printing a test photo", 5, None),
    ),
)

PHOTOGRAPHY = Activity(
    "photography",
    ("photo", "camera", "headshot"),
    middle=(
        ("taking photos", 10, None),
        ("adjusting the camera settings", 5, None),
        ("framing a shot", 5, None),
        ("looking for the right light", 10, None),
        ("checking the pictures on the camera", 5, None),
    ),
)

DIGITAL_ART = Activity(
    "digital_art",
    ("animat", "drawing tablet", "digital", "frames", "storyboard", "drawing"),
    middle=(
        ("sketching a character", 15, None),
        ("animating a scene frame by frame", 15, None),
        ("colouring a drawing", 10, None),
        ("watching the animation back", 5, None),
        ("trying out a new brush", 10, None),
    ),
)

PAINTING = Activity(
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
)

WRITING = Activity(
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
)

STUDYING = Activity(
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
)

READING = Activity(
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
)

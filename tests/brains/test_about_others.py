"""A question about someone else is answered about them, not about oneself: their work,
what they are doing, what they did, whether they go to an event, and who in town does
something, from what one knows of them; an honest 'I don't know' of them otherwise.
Phrasings and residents are not in the exemplars (game/brains/dialogue/whose.py).
"""

from __future__ import annotations

from datetime import timedelta
from functools import cache

from test_scripted_personas import DAY, context, heard, of, planned, seen, smallville

from game.brains.dialogue.acts import Aspect
from game.brains.dialogue.understand import Understander
from game.brains.scripted import answer
from game.core.records import Fact, FactKind, Line, MemoryKind, PlanItem, Rsvp, Source
from game.mind.dialogue import hear, understander_for
from game.world.tmx import load_town

NOW = DAY + timedelta(hours=11)  # the morning before the party (Feb 13, 11 am)


@cache
def words() -> Understander:
    scenario = smallville()
    return understander_for(load_town(scenario.map_path), scenario.residents, scenario.intents)


def ask(name: str, question: str, memories=(), now=NOW) -> str:
    ctx = context(smallville().resident(name), now, tuple(memories))
    return answer.answer(ctx, hear(words(), question, now, None, ""), None, 0).text


def label(question: str) -> str:
    return hear(words(), question, NOW, None, "").label


def test_someone_elses_job_is_theirs_as_the_town_knows_it():
    me = smallville().resident("Ayesha Khan")
    other = next(k for k in me.acquainted if k.name == "Wolfgang Schulz")
    got = ask(me.name, "Out of interest, what job has Wolfgang Schulz got?")
    assert "Wolfgang" in got and "chemistry" in got, got
    assert "literature" not in got  # her own subject, not his
    assert other.occupation.split()[0] in got


def test_where_someone_works_names_their_workplace():
    got = ask("Tamara Taylor", "Do you happen to know where John Lin is working these days?")
    assert "The Willows Market and Pharmacy" in got and "John" in got, got
    assert "children's book" not in got


def test_the_job_of_someone_one_only_saw_about_is_not_made_up():
    saw = seen(1, "Latoya Williams", "photographing the fountain", DAY + timedelta(hours=9))
    got = ask("Tom Moreno", "What's Latoya Williams's line of business?", (saw,))
    assert "photographing the fountain" in got and "don't know what Latoya does" in got, got
    assert "grocer" not in got


def test_someone_one_has_never_come_across_is_said_so():
    got = ask("Ryan Park", "Is Wolfgang Schulz working anywhere at the moment?")
    assert got.startswith("I don't know who Wolfgang Schulz is"), got


def test_what_someone_is_doing_now_is_the_latest_time_one_saw_them():
    saw = seen(1, "Carmen Ortiz", "restocking the paint shelves", NOW - timedelta(minutes=12))
    got = ask("Tamara Taylor", "Any clue what Carmen Ortiz is busy with right this minute?", (saw,))
    assert "restocking the paint shelves" in got and "Carmen" in got, got
    assert not got.startswith(("I'm", "I am"))


def test_what_someone_did_yesterday_is_what_one_saw_them_do_then():
    yesterday = NOW - timedelta(days=1)
    memories = (seen(1, "Mei Lin", "grading essays", yesterday.replace(hour=15)),
                seen(2, "Mei Lin", "watering the roses", NOW - timedelta(hours=1)))  # fmt: skip
    got = ask("Jane Moreno", "How did Mei Lin spend her day yesterday?", memories,
              now=NOW)  # fmt: skip
    assert "grading essays" in got and "watering the roses" not in got, got


def test_whether_someone_goes_to_the_party_is_what_they_told_one():
    party = smallville().intents[0].event
    assert party is not None
    news = heard(1, "Isabella Rodriguez", "Isabella Rodriguez is hosting a Valentine's Day "
                 "party at Hobbs Cafe on February 14 from 5 pm to 7 pm")  # fmt: skip
    said = Fact(FactKind.CONVERSATION, Source.HEARD, subject="Wolfgang Schulz",
                predicate="talked with", heard_from="Wolfgang Schulz",
                participants=("Wolfgang Schulz", "Ayesha Khan"),
                lines=(Line("Wolfgang Schulz", "Count me in!", Rsvp.ACCEPTED, party),))  # fmt: skip
    talk = of(2, said, MemoryKind.CHAT, 4, NOW - timedelta(hours=2))
    yes = ask("Ayesha Khan", "Will Wolfgang Schulz be turning up at the party?", (news, talk))
    assert yes.startswith("Yes") and "Wolfgang" in yes, yes
    unknown = ask("Ayesha Khan", "Will Maria Lopez be turning up at the party?", (news, talk))
    assert "Maria" in unknown and "I'll be" not in unknown, unknown


def test_asked_of_anyone_the_answer_names_whom_one_knows_for_it():
    got = ask("Carmen Ortiz", "Does anybody round here write books for children?")
    assert "Tamara" in got, got
    painter = ask("Rajiv Patel", "Is there somebody in town who does watercolours?")
    assert "Jennifer" in painter, painter
    nobody = ask("Ryan Park", "Does anybody around here teach yoga?")
    assert nobody.startswith("Not that I know of"), nobody


def test_who_works_at_a_place_is_whom_one_knows_works_there():
    got = ask("Arthur Burton", "Who keeps the Harvey Oak Supply Store going?")
    assert "Carmen" in got, got


def test_a_question_of_oneself_by_name_or_with_someone_stays_ones_own():
    mine = ask("Klaus Mueller", "What does Klaus Mueller do for a living?")
    assert "sociology" in mine and "Klaus Mueller is" not in mine, mine
    assert not label("Are you taking Maria Lopez to the party?").startswith("person.")
    assert not label("Do you ever have lunch with Sam Moore?").startswith("person.")


def test_a_pointed_follow_up_in_a_line_of_its_own_keeps_the_facet():
    act = hear(words(), "Has Eddy Lin been practising lately?", NOW, None, "")
    assert act.person == "Eddy Lin" and act.aspect is Aspect.PERSON
    assert act.label in ("person.past", "person.doing", "person.interests"), act.label


def test_a_frame_of_knowing_before_or_after_the_question_is_set_aside():
    tagged = ask("Maria Lopez", "Anyone in town who's big on running, would you know?")
    assert "Wolfgang" in tagged, tagged
    bare = hear(words(), "Know anybody who sings in a choir?", NOW, None, "")
    assert bare.label == "person.find", bare.label
    where = ask("Eddy Lin", "Where does Mei Lin work these days, do you know?")
    assert "Oak Hill College" in where and "music" not in where, where
    job = ask("Jane Moreno", "And what is it John Lin does, would you say?")
    assert "pharmacy" in job, job
    talk = hear(words(), "What did you and John Lin talk about?", NOW, None, "")
    assert talk.label == "person.talk", talk.label


def test_someone_elses_plans_are_ones_own_plans_with_them():
    supper = PlanItem("cooking supper with Klaus", NOW.replace(hour=18), 60)
    plan = planned(1, "Wolfgang Schulz", (supper,), NOW.replace(hour=6))
    got = ask("Wolfgang Schulz", "What has Klaus Mueller got on for later today?", (plan,))
    assert got.startswith("Klaus and I are cooking supper at 6 pm"), got
    none = ask("Wolfgang Schulz", "What has Maria Lopez got on for later today?", (plan,))
    assert none.startswith("I don't know what Maria has planned for"), none


def test_what_asks_of_news_or_of_who_someone_is_stays_so():
    assert label("Anyone standing for the council this year?") == "news"
    assert label("Is anybody trying to get elected round here?") == "news"
    assert label("What's Giorgio Rossi like as a person?") == "person.about"

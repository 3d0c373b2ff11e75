"""Pygame events become commands in one place; the controls table is the documentation."""

from pathlib import Path

import pygame

from game.ui.input import (
    CONTROLS,
    Act,
    click_events,
    controls_markdown,
    key_event,
    text_event,
    translate,
)

ROOT = Path(__file__).resolve().parents[2]


def acts(event, typing=False):
    return [c.act for c in translate(event, typing)]


def test_walk_keys_press_and_release():
    down = translate(key_event(pygame.K_w))
    up = translate(key_event(pygame.K_w, down=False))
    assert down[0].act is Act.WALK and down[0].delta == (0, -1) and down[0].pressed
    assert up[0].act is Act.WALK and not up[0].pressed
    assert translate(key_event(pygame.K_RIGHT))[0].delta == (1, 0)


def test_keys_become_text_while_a_box_has_the_focus():
    assert acts(key_event(pygame.K_t)) == [Act.TALK]
    assert acts(key_event(pygame.K_t), typing=True) == []
    assert acts(text_event("t"), typing=True) == [Act.TYPE]
    assert acts(text_event("t")) == []
    assert acts(key_event(pygame.K_RETURN), typing=True) == [Act.SUBMIT]
    assert acts(key_event(pygame.K_BACKSPACE), typing=True) == [Act.ERASE]


def test_function_keys_work_even_while_typing():
    for key, act in ((pygame.K_F1, Act.HELP), (pygame.K_F5, Act.SAVE), (pygame.K_F9, Act.LOAD)):
        assert acts(key_event(key), typing=True) == [act]
    assert acts(key_event(pygame.K_ESCAPE), typing=True) == [Act.BACK]


def test_speed_keys():
    assert translate(key_event(pygame.K_5))[0].value == 16
    assert acts(key_event(pygame.K_SPACE)) == [Act.PAUSE]
    assert acts(key_event(pygame.K_RIGHTBRACKET)) == [Act.FASTER]


def test_a_click_is_a_press_and_a_release():
    down, up = click_events((10, 20))
    assert translate(down)[0].act is Act.POINTER_DOWN
    assert translate(up)[0].pos == (10, 20)


def test_quit_and_resize():
    assert acts(pygame.event.Event(pygame.QUIT)) == [Act.QUIT]
    resize = translate(pygame.event.Event(pygame.VIDEORESIZE, w=900, h=600, size=(900, 600)))
    assert resize[0].delta == (900, 600)


def test_docs_controls_match_the_table():
    text = (ROOT / "docs" / "CONTROLS.md").read_text(encoding="utf-8")
    assert text == controls_markdown()
    assert len(CONTROLS) >= 12 and any("F5" in key for key, _ in CONTROLS)

"""Write small Tiled maps from ASCII art, so world tests need not depend on the big map.

'#' is a blocked tile, '.' a floor. Areas are (class, name, x, y, w, h, properties).
"""

from __future__ import annotations

from pathlib import Path

HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" \
width="{w}" height="{h}" tilewidth="32" tileheight="32" infinite="0" nextlayerid="4" \
nextobjectid="{next_id}">
 <tileset firstgid="1" name="tiny" tilewidth="32" tileheight="32" tilecount="2" columns="2">
  <image source="tiny.png" width="64" height="32"/>
  <tile id="1"><properties><property name="blocked" type="bool" value="true"/></properties></tile>
 </tileset>
 <layer id="1" name="ground" width="{w}" height="{h}">
  <data encoding="csv">
{csv}
</data>
 </layer>
"""


def _prop(name: str, value: object) -> str:
    kind = "int" if isinstance(value, int) else "string"
    return f'<property name="{name}" type="{kind}" value="{value}"/>'


def write_map(
    path: Path,
    art: str,
    areas: list[tuple] = (),
    spawns: dict[str, tuple[int, int]] | None = None,
    klass_attr: str = "class",
) -> Path:
    rows = [r for r in art.strip().splitlines()]
    h, w = len(rows), len(rows[0])
    csv = ",\n".join(",".join("2" if ch == "#" else "1" for ch in row) for row in rows)
    parts = [HEAD.format(w=w, h=h, csv=csv, next_id=len(areas) + len(spawns or {}) + 1)]
    parts.append(' <objectgroup id="2" name="areas">')
    oid = 1
    for klass, name, x, y, aw, ah, *props in areas:
        attrs = f'id="{oid}" name="{name}" {klass_attr}="{klass}" x="{x * 32}" y="{y * 32}"'
        attrs += f' width="{aw * 32}" height="{ah * 32}"'
        inner = "".join(_prop(k, v) for k, v in (props[0] if props else {}).items())
        parts.append(f"  <object {attrs}><properties>{inner}</properties></object>")
        oid += 1
    parts.append(" </objectgroup>")
    parts.append(' <objectgroup id="3" name="spawns">')
    for name, (x, y) in (spawns or {}).items():
        parts.append(
            f'  <object id="{oid}" name="{name}" class="spawn" x="{x * 32 + 16}" y="{y * 32 + 16}">'
            "<point/></object>"
        )
        oid += 1
    parts.append(" </objectgroup>\n</map>\n")
    path.write_text("\n".join(parts), encoding="utf-8")
    return path

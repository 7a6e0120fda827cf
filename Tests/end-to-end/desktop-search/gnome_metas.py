"""GNOME Shell's side: gdbus's output parsed, and GetResultMetas checked as remoteSearch.js reads it."""
import json
import os
import sys

from dbus_replies import Malformed, call, expect, is_str, SEARCH_PATH, SEARCH_IFACE, PNG_SIGNATURE


def parse_gvariant(text, type_string=None):
    from gi.repository import GLib
    v = GLib.Variant.parse(GLib.VariantType.new(type_string) if type_string else None, text.strip(), None, None)
    return v


def icon_summary(icon, where):
    """The 'icon' meta, as Gio.icon_deserialize reads it: GFileIcon serializes to (sv)
    ('file', <'file:///…'>), GThemedIcon to ('themed', <['name', …]>)."""
    from gi.repository import Gio
    problems = []
    t = icon.get_type_string()
    if t != "(sv)":
        return {"type": t}, [f"{where}: icon is {t}, not (sv) (g_icon_serialize of a GFileIcon or GThemedIcon)"]
    tag, inner = icon.get_child_value(0).get_string(), icon.get_child_value(1).get_variant()
    out = {"type": t, "kind": tag, "inner_type": inner.get_type_string()}
    if Gio.Icon.deserialize(icon) is None:
        problems.append(f"{where}: Gio.Icon.deserialize refuses the icon")
    if tag == "file":
        if inner.get_type_string() != "s" or not inner.get_string().startswith("file:///"):
            problems.append(f"{where}: file icon value is {inner.print_(True)}, not a file:// URI string")
        else:
            path = Gio.File.new_for_uri(inner.get_string()).get_path()
            out["path"] = path
            try:
                with open(path, "rb") as f:
                    out["png"] = f.read(8) == PNG_SIGNATURE
            except OSError as e:
                out["png"] = False
                problems.append(f"{where}: icon file {path}: {e.strerror}")
            if not out["png"] and os.path.exists(path):
                problems.append(f"{where}: icon file {path} is not a PNG")
    elif tag == "themed":
        if inner.get_type_string() != "as" or not inner.unpack():
            problems.append(f"{where}: themed icon value is {inner.print_(True)}, not a non-empty as")
        else:
            out["names"] = inner.unpack()
    else:
        problems.append(f"{where}: icon kind {tag!r}, neither 'file' nor 'themed'")
    return out, problems


def check_metas(text):
    v = parse_gvariant(text)
    expect(v.get_type_string() == "(aa{sv})", f"GetResultMetas replied {v.get_type_string()}, not (aa{{sv}})")
    metas, problems = [], []
    for i in range(v.get_child_value(0).n_children()):
        d = v.get_child_value(0).get_child_value(i)
        where = f"meta {i}"
        meta = {}
        for j in range(d.n_children()):
            entry = d.get_child_value(j)
            key, value = entry.get_child_value(0).get_string(), entry.get_child_value(1).get_variant()
            if key == "icon":
                meta["icon"], p = icon_summary(value, where)
                problems += p
            elif key in ("id", "name", "description", "clipboardText", "gicon"):
                if value.get_type_string() != "s":
                    problems.append(f"{where}: {key} is {value.get_type_string()}, not s")
                meta[key] = value.unpack()
            elif key == "icon-data":
                meta[key] = value.get_type_string()
                if value.get_type_string() != "(iiibiiay)":
                    problems.append(f"{where}: icon-data is {value.get_type_string()}, not (iiibiiay)")
            else:
                meta[key] = value.print_(True)
        for key in ("id", "name"):  # search.js drops the provider's metas without them
            if not meta.get(key):
                problems.append(f"{where}: no {key}")
        if not any(k in meta for k in ("icon", "gicon", "icon-data")):
            problems.append(f"{where}: no icon")
        metas.append(meta)
    return metas, problems


def is_control(ch):
    o = ord(ch)
    return o < 0x20 or 0x7F <= o <= 0x9F or 0x202A <= o <= 0x202E or 0x2066 <= o <= 0x2069 or o in (0x200E, 0x200F, 0x061C, 0x2028, 0x2029)

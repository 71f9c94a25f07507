"""docs/records.md's record tables read as data, and where they and tools/pmu_schema.py differ.

A record type is a section headed "### `name`: ..." whose first table has the columns key, type,
meaning; a row names one or more keys in backticks, their JSON type as the schema's specs write it
(pmu_spec.Spec.json_type: "integer or null", "array of strings") and their meaning, which begins
with "only" or "optional" for a key that not every record of the type holds, and quotes every
value a key of a fixed set may take (`"greedy"`), or says "as in `exp`" where that row does.
"""

import re

SECTION_RE = re.compile(r"^### `([a-z_]+)`", re.M)
KEY_RE = re.compile(r"`([^`]+)`")
AS_IN_RE = re.compile(r"as in `([a-z_]+)`")
PIPE_RE = re.compile(r"(?<!\\)\|")


class Row:
    def __init__(self, type_text, meaning):
        self.type_text = type_text
        self.meaning = meaning

    @property
    def json_type(self):
        """The type column as a spec's json_type() says it: one spacing, no commas, and a row of
        several keys in the singular ("arrays of integers" -> "array of integers")."""
        text = " ".join(self.type_text.lower().replace(",", " ").split())
        return re.sub(r"^arrays of ", "array of ", text)

    @property
    def optional(self):
        return re.match(r"(only|optional)\b", self.meaning.lower()) is not None


def cells(line):
    return [c.strip() for c in PIPE_RE.split(line.strip())[1:-1]]


def record_tables(text):
    """{record type: {key: Row}} of the document's text."""
    tables = {}
    starts = [(m.start(), m.group(1)) for m in SECTION_RE.finditer(text)]
    for i, (start, name) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
        tables[name] = _first_key_table(text[start:end].splitlines())
    return tables


def _first_key_table(lines):
    rows = {}
    for i, line in enumerate(lines):
        if cells(line) == ["key", "type", "meaning"]:
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                key_cell, type_text, meaning = cells(row)
                for key in KEY_RE.findall(key_cell):
                    rows[key] = Row(type_text, meaning)
            break
    return rows


def enum_values(spec):
    """The values of a key of a fixed set (pmu_spec.Enum, or one that may be null), or ()."""
    spec = getattr(spec, "spec", spec)  # Null(Enum(...))
    return getattr(spec, "values", ())


def differences(text, records):
    """Sentences naming each place where the document's tables and the schema `records`
    (pmu_schema.RECORDS) differ; [] when they say the same."""
    tables = record_tables(text)
    found = ["type %s: in the schema, not in the document" % t
             for t in records if t not in tables]
    found += ["type %s: in the document, not in the schema" % t
              for t in tables if t not in records]
    for type_name in records:
        if type_name in tables:
            found.extend(_type_differences(type_name, records[type_name], tables))
    return found


def _type_differences(type_name, record_type, tables):
    rows = tables[type_name]
    found = ["%s.%s: in the schema, not in the document" % (type_name, k)
             for k in record_type.specs if k not in rows]
    found += ["%s.%s: in the document, not in the schema" % (type_name, k)
              for k in rows if k not in record_type.specs]
    for key, spec in record_type.specs.items():
        if key not in rows:
            continue
        row, where = rows[key], "%s.%s" % (type_name, key)
        if row.json_type != spec.json_type():
            found.append("%s: the document says %r, the schema %r"
                         % (where, row.json_type, spec.json_type()))
        if row.optional == (key in record_type.always):
            found.append("%s: the document says %s, the schema %s" % (
                where, *(("optional", "always") if row.optional else ("always", "optional"))))
        meaning = _meaning_with_reference(row, key, tables)
        for value in enum_values(spec):
            if '"%s"' % value not in meaning:
                found.append('%s: the document does not name the value "%s"' % (where, value))
    return found


def _meaning_with_reference(row, key, tables):
    """A row's meaning, and the meaning of the row it refers to ("as in `exp`")."""
    meaning = row.meaning
    for other in AS_IN_RE.findall(row.meaning):
        if key in tables.get(other, {}):
            meaning += " " + tables[other][key].meaning
    return meaning

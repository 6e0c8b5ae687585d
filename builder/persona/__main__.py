"""``python -m builder.persona``: write personas/persona.schema.json from the models."""

import json
from pathlib import Path

from . import json_schema

dest = Path(__file__).resolve().parents[2] / "personas" / "persona.schema.json"
dest.write_text(json.dumps(json_schema(), indent=2) + "\n", encoding="utf-8")
print(dest)

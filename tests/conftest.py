"""Settings for the whole test suite.

Every record arena builds while the tests run is validated against ``schemas/record.schema.json``
(:func:`arena.records.validate_record`): set here, at import, in ``os.environ``, so arena processes
the tests start (``arena match``, ``arena run`` in a subprocess) inherit it too.
"""

from __future__ import annotations

import os

from arena.records import VALIDATE_ENV

os.environ[VALIDATE_ENV] = "1"

"""The model brain's tests keep what they learn about endpoints (the settled output mode)
in a cache of their own, never the user's."""

import os
import tempfile

os.environ.setdefault("SMALLVILLE_CACHE", tempfile.mkdtemp(prefix="smallville-cache-"))

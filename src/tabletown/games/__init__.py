"""One subpackage per game; each registers itself on import (see tabletown.core.registry)."""

// Intentionally empty: the shim only exposes kernel headers to Swift.
#include "CNetStatusShim.h"

#include <HEADER>

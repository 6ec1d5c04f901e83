// aubio (libaubio-dev): beat tracking and onset detection of music (Beats.swift).
#include <aubio/aubio.h>

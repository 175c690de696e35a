"""Pure rules engines: state + actor + action + dice source -> new state + events. No Discord, no I/O."""

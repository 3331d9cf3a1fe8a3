// Terminal: being written (see the issue tracker).

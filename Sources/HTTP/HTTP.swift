// HTTP: being written (see the issue tracker).

// Encoding: being written (see the issue tracker).

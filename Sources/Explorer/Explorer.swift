// Explorer: being written (see the issue tracker).

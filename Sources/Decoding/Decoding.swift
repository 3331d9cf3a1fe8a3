// Decoding: being written (see the issue tracker).

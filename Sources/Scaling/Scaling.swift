// Scaling: being written (see the issue tracker).

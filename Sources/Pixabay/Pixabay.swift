// Pixabay: being written (see the issue tracker).

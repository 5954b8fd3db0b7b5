/// Rendering of the live progress and buffer line; see the types in this module.

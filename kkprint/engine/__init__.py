"""The print engine: sheets, marks, fonts, text and shapes. It knows nothing about any game."""

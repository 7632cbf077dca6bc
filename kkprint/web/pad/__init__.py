"""The score pad: the scorers as a local web app for the phones around a table."""

"""The analysis of a finished game (issue 18); exercises from its marked decisions."""

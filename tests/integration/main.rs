mod riichi;

mod tayu;

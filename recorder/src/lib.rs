//! Making Paifu logs.

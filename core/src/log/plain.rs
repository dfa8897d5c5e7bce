//! A serializer that only walks a value, for tests: it refuses what
//! [`Action::CANONICAL_UNLESS_OVERLONG`](super::Action::CANONICAL_UNLESS_OVERLONG) rules out
//! (maps, chars and floats), so each engine's tests can check that every variant of its action
//! type keeps the promise its flag makes.

use super::{Claim, Record};
use serde::{Serialize, Serializer};
use std::fmt::Display;

/// The walking serializer: every value is visited, a map, a char or a float is an error.
#[derive(Clone, Copy)]
pub(crate) struct Plain;

#[derive(Debug)]
pub(crate) struct NotPlain(String);

impl std::fmt::Display for NotPlain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotPlain {}

impl serde::ser::Error for NotPlain {
    fn custom<T: Display>(msg: T) -> Self {
        NotPlain(msg.to_string())
    }
}

type R = Result<(), NotPlain>;

macro_rules! plain_leaves {
    ($($f:ident($t:ty)),*) => {
        $(fn $f(self, _: $t) -> R {
            Ok(())
        })*
    };
}

macro_rules! plain_compound {
    ($($tr:ident: $f:ident),*) => {
        $(impl serde::ser::$tr for Plain {
            type Ok = ();
            type Error = NotPlain;
            fn $f<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
                v.serialize(Plain)
            }
            fn end(self) -> R {
                Ok(())
            }
        })*
    };
}

plain_compound!(
    SerializeSeq: serialize_element,
    SerializeTuple: serialize_element,
    SerializeTupleStruct: serialize_field,
    SerializeTupleVariant: serialize_field
);

impl serde::ser::SerializeStruct for Plain {
    type Ok = ();
    type Error = NotPlain;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, _: &'static str, v: &T) -> R {
        v.serialize(Plain)
    }
    fn end(self) -> R {
        Ok(())
    }
}

impl serde::ser::SerializeStructVariant for Plain {
    type Ok = ();
    type Error = NotPlain;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, _: &'static str, v: &T) -> R {
        v.serialize(Plain)
    }
    fn end(self) -> R {
        Ok(())
    }
}

impl Serializer for Plain {
    type Ok = ();
    type Error = NotPlain;
    type SerializeSeq = Plain;
    type SerializeTuple = Plain;
    type SerializeTupleStruct = Plain;
    type SerializeTupleVariant = Plain;
    type SerializeMap = serde::ser::Impossible<(), NotPlain>;
    type SerializeStruct = Plain;
    type SerializeStructVariant = Plain;

    plain_leaves!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_unit_struct(&'static str)
    );

    fn serialize_f32(self, _: f32) -> R {
        Err(NotPlain("a float".into()))
    }
    fn serialize_f64(self, _: f64) -> R {
        Err(NotPlain("a float".into()))
    }
    fn serialize_char(self, _: char) -> R {
        Err(NotPlain("a char".into()))
    }
    fn serialize_none(self) -> R {
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> R {
        v.serialize(Plain)
    }
    fn serialize_unit(self) -> R {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> R {
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> R {
        v.serialize(Plain)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(self, _: &'static str, _: u32, _: &'static str, v: &T) -> R {
        v.serialize(Plain)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Plain, NotPlain> {
        Ok(Plain)
    }
    fn serialize_tuple(self, _: usize) -> Result<Plain, NotPlain> {
        Ok(Plain)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Plain, NotPlain> {
        Ok(Plain)
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Plain, NotPlain> {
        Ok(Plain)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, NotPlain> {
        Err(NotPlain("a map".into()))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Plain, NotPlain> {
        Ok(Plain)
    }
    fn serialize_struct_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Plain, NotPlain> {
        Ok(Plain)
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

/// Every variant of `A`, in records with and without claims, serializes without a map, a
/// char or a float (as its flag promises); and the walk does find a map where there is one.
pub(crate) fn assert_plain_records<A: super::Action>(notations: &[&str]) {
    assert!(A::CANONICAL_UNLESS_OVERLONG);
    for n in notations {
        let action: A = n.parse().unwrap_or_else(|e| panic!("{n}: {e:?}"));
        for claim in [None, Some(Claim { round: Some(vec![-1, 1]), final_scores: Some(vec![0, 0]) })] {
            let r = Record { seq: 300, seat: 1, action: action.clone(), claim };
            r.serialize(Plain).unwrap_or_else(|e| panic!("{n}: {e}"));
        }
    }
}

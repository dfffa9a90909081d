//! Serde for arrays longer than serde's own impls reach (a board's cells):
//! written as a sequence, read back only at exactly the array's length.

use serde::de::Error;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub fn serialize<S: Serializer, T: Serialize, const N: usize>(
    cells: &[T; N],
    out: S,
) -> Result<S::Ok, S::Error> {
    out.collect_seq(cells.iter())
}

pub fn deserialize<'de, D, T, const N: usize>(input: D) -> Result<[T; N], D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let cells = Vec::<T>::deserialize(input)?;
    let len = cells.len();
    cells
        .try_into()
        .map_err(|_| D::Error::invalid_length(len, &format!("{N} cells").as_str()))
}

//! `yorimichi dice`: throws the まわり将棋 koma-dice many times in the
//! simulation and prints how often each pose and each result came up.

use std::time::Instant;

use crate::cli::DiceArgs;
use crate::rules::mawari::dice::dice_table;

pub fn run(args: &DiceArgs) {
    let started = Instant::now();
    let table = dice_table(args.throws, args.seed);
    let seconds = started.elapsed().as_secs_f64();
    let koma = f64::from(table.throws) * 4.0;
    let throws = f64::from(table.throws);
    if args.csv {
        println!("kind,name,count,percent");
        for (pose, n) in &table.poses {
            println!("pose,{},{n},{:.3}", pose.id(), 100.0 * f64::from(*n) / koma);
        }
        for (name, n) in &table.results {
            println!("throw,{name},{n},{:.3}", 100.0 * f64::from(*n) / throws);
        }
        return;
    }
    println!(
        "{} throws of four 金将 (seed {}), simulated in {seconds:.1} s; the longest came to rest after {:.2} s",
        table.throws, args.seed, table.longest
    );
    println!("\npose of each koma        count   percent");
    for (pose, n) in &table.poses {
        println!(
            "  {:<20} {n:>9} {:>8.3}%",
            pose.id(),
            100.0 * f64::from(*n) / koma
        );
    }
    println!("\nthrow result             count   percent");
    for (name, n) in &table.results {
        println!(
            "  {:<20} {n:>9} {:>8.3}%",
            name,
            100.0 * f64::from(*n) / throws
        );
    }
}

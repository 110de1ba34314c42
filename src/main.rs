fn main() {
    println!("myhill");
}

from tests.test_command_tree_valid import total_characters
from tests.vic_e2e_support import vic_bot


async def test_tree(fake, make_bot):
    await vic_bot(make_bot)
    for c in fake.commands:
        if c["name"] == "vic":
            for x in c["options"]:
                n = sum(1 for _ in x.get("options", []))
                print("SIZE", x["name"], total_characters(x), n)

def test_home_city_is_the_catalogue_s_name_of_the_address_city():
    """GeoNames calls it New York City, the catalogue New York: a home there has the catalogue's restaurants (a
    generated persona's TableTime had none and its seed failed on an empty insert)."""
    from types import SimpleNamespace as NS

    from apps.dining.seed import home_city

    def world(city, country, region=None):
        return NS(persona=NS(identity=NS(address=NS(city=city, country=country, region=region))))

    assert home_city(world("New York City", "US", "NY")) == "New York"
    assert home_city(world("Portland", "US", "OR")) == "Portland"
    assert home_city(world("Tokyo", "JP")) == "Tokyo"
    assert home_city(NS(persona=NS(identity=NS(address=None)))) == ""

class ModelNew:
    # speed: 3
    pass
